import type { Core } from '@strapi/strapi';
import { createContentApiAccess } from '../access/content-api-access';
import { createDocumentPermissions } from '../access/document-permissions';
import { createContentReader } from '../narration/content';
import { createJobsRepository } from '../narration/jobs.repository';
import { createMediaStore } from '../narration/media';
import { createVoiceOverrides } from '../narration/voice-overrides';
import { createPendingRecordings } from '../narration/pending-recordings';
import { createTranscriptionRepository } from '../speech-to-text/repository';
import { getService } from '../utils';
import { createFeedsService } from './feeds';
import { createNarrationsService } from './narrations';
import { createSettingsService } from './settings';
import { createSpeechClientService } from './speech-client';
import { createSpeechToTextService } from './speech-to-text';
import { createVoicePreviewService } from './voice-preview';
import { createVoicesService } from './voices';
import { createWorkerService } from './worker';
import { createNarrationWebhooks } from '../webhooks/narration-webhooks';

type Factory = ({ strapi }: { strapi: Core.Strapi }) => unknown;

/**
 * The plugin's services, by name (`getService(name)` in utils/ returns them typed). Strapi creates
 * each one the first time it is asked for, once per instance, so every caller shares it.
 */
export default {
  /** The configuration file and the editor's runtime settings; the queue's pause and credits. */
  settings: createSettingsService,
  /** The site's content types and entries as narration reads them. */
  content: ({ strapi }) => createContentReader(strapi),
  /** The narration queue's rows: the only code that writes them. Each committed change may announce a webhook event. */
  jobs: ({ strapi }) => createJobsRepository(strapi, (change) => getService('webhooks').transitionCommitted(change)),
  /** `narration.ready` / `narration.failed` on Strapi's event hub, for its webhook runner. */
  webhooks: ({ strapi }) =>
    createNarrationWebhooks(strapi, {
      findRow: (id) => getService('jobs').findById(id, true),
      publicUrl: () => getService('settings').publicUrl(),
    }),
  /** A narration's files in the Media Library. */
  media: ({ strapi }) => createMediaStore(strapi, getService('settings').config),
  /** Saves noted before Strapi writes them, until their narration is recorded (the reconciliation records what is left). */
  'pending-recordings': ({ strapi }) => createPendingRecordings(strapi),
  /** The voice an editor chose for one article. */
  'voice-overrides': ({ strapi }) => createVoiceOverrides(strapi),
  /** The voices editors choose from. */
  voices: createVoicesService,
  /** The one configured client of the speech service. */
  'speech-client': createSpeechClientService,
  /** Submits queued narrations and stores their results. */
  worker: createWorkerService,
  /** The narration use cases the controllers, the document middleware and the content API call. */
  narrations: createNarrationsService,
  /** The transcription rows: the only code that writes them. */
  transcriptions: ({ strapi }) => createTranscriptionRepository(strapi),
  /** Speech to text: uploads, following jobs, results. */
  'speech-to-text': createSpeechToTextService,
  /** Voice previews and "listen to this paragraph". */
  'voice-preview': createVoicePreviewService,
  /** The Content Manager's permissions, applied to the documents the admin routes act on. */
  'document-permissions': ({ strapi }) => createDocumentPermissions(strapi),
  /** Who may read narrations through the content API (REST and GraphQL). */
  'content-api-access': ({ strapi }) => createContentApiAccess(strapi),
  /** Podcast feeds of narrated types. */
  feeds: createFeedsService,
} satisfies Record<string, Factory>;
