import type { Core } from '@strapi/strapi';
import { createContentApiAccess } from '../access/content-api-access';
import { createBudgetService } from '../credits/budget.service';
import { createLedgerRepository } from '../credits/ledger.repository';
import { createLedgerService } from '../credits/ledger.service';
import { createUsageService } from '../credits/usage.service';
import { createDocumentPermissions } from '../access/document-permissions';
import { createFeedsService } from '../feeds/service';
import { createLexiconService } from '../lexicon/service';
import { createContentReader } from '../narration/content';
import { createNarrationEditorService } from '../narration/editor.service';
import { liveVersionReader } from '../narration/live-version';
import { createNarrationsRepository } from '../queue';
import { createMediaStore } from '../queue';
import { createNarrationsService } from '../narration/narrations.service';
import { createPartsRepository } from '../queue';
import { createPendingRecordings } from '../narration/pending-recordings';
import { createPublicViewsService } from '../narration/public-views.service';
import { createVoiceOverrides } from '../narration/voice-overrides';
import { createWorker } from '../queue';
import { createSettingsService } from '../settings/service';
import { createSpeechClient } from '../speech-client';
import { createTranscriptionRepository } from '../speech-to-text/repository';
import { createSpeechToTextService } from '../speech-to-text/service';
import { createInsightsRepository } from '../insights/insights.repository';
import { createInsightsService } from '../insights/insights.service';
import { createInsightsViews } from '../insights/views.service';
import { getService } from '../utils';
import { createVoicePreview } from '../voices/preview';
import { createVoicesService } from '../voices/service';
import { createNarrationWebhooks } from '../webhooks/narration-webhooks';

type Factory = ({ strapi }: { strapi: Core.Strapi }) => unknown;

/**
 * The plugin's services, by name: each feature's factory, wired to the others here and nowhere
 * else (`getService(name)` in utils/ returns them typed). Strapi creates each one the first time it
 * is asked for, once per instance, so every caller shares it.
 */
export default {
  /** The configuration file and the editor's runtime settings; the queue's pause and credits. */
  settings: createSettingsService,
  /** The one client of the speech service: narration, speech to text and voice previews all go through it. */
  'speech-client': () => {
    const { config } = getService('settings');
    return createSpeechClient({
      apiKey: config.apiKey,
      baseUrl: config.baseUrl,
      webUrl: config.webUrl,
      timeoutMs: config.requestTimeoutMs,
      voicesPath: config.voicesPath,
    });
  },
  /** The site's content types and entries as narration reads them. */
  content: ({ strapi }) => createContentReader(strapi),
  /** The narration queue's rows: the only code that writes them. Each committed change may announce a webhook event. */
  jobs: ({ strapi }) => createNarrationsRepository(strapi, (change) => getService('webhooks').transitionCommitted(change)),
  /** The parts of segmented narrations on their way (docs/segmented-narration.md). */
  parts: ({ strapi }) => createPartsRepository(strapi),
  /** Saves noted before Strapi writes them, until their narration is recorded (the reconciliation records what is left). */
  'pending-recordings': ({ strapi }) => createPendingRecordings(strapi),
  /** The voice an editor chose for one article. */
  'voice-overrides': ({ strapi }) => createVoiceOverrides(strapi),
  /** A narration's files in the Media Library. */
  media: ({ strapi }) => createMediaStore(strapi, getService('settings').config),
  /** Submits queued narrations and stores their results. */
  worker: ({ strapi }) => {
    const settings = getService('settings');
    const client = getService('speech-client');
    return createWorker({
      strapi,
      config: settings.config,
      repository: getService('jobs'),
      parts: getService('parts'),
      settings,
      describeLive: liveVersionReader({ settings, content: getService('content'), voiceOverrides: getService('voice-overrides') }),
      client: () => client,
      media: getService('media'),
      callbackUrl: () => settings.callbackUrl(),
      ledger: getService('ledger'),
      budget: getService('budget'),
    });
  },
  /** The credits ledger: every request that could charge, who caused it, how it ended. */
  ledger: ({ strapi }) => createLedgerService({ strapi, repository: createLedgerRepository(strapi), settings: getService('settings') }),
  /** The monthly credit budget: what waits for it, what it lets through. */
  budget: ({ strapi }) =>
    createBudgetService({
      strapi,
      settings: getService('settings'),
      ledger: getService('ledger'),
      wake: () => getService('worker').wake(),
    }),
  /** The usage view: the ledger's days, month and top articles, and its CSV. */
  usage: ({ strapi }) => createUsageService(strapi),
  /** Publish and record, the service's callback, the worker's and the reconciliation's lifecycle. */
  narrations: createNarrationsService,
  /** What editors do by hand: narrate now, regenerate, voice, estimates, the queue's overview. */
  'narration-editor': createNarrationEditorService,
  /** The narrations a front end may see (public routes, REST, GraphQL). */
  'narration-views': createPublicViewsService,
  /** `narration.ready` / `narration.failed` on Strapi's event hub, for its webhook runner. */
  webhooks: ({ strapi }) =>
    createNarrationWebhooks(strapi, {
      findRow: (id) => getService('jobs').findById(id, true),
      publicUrl: () => getService('settings').publicUrl(),
    }),
  /** Which narrated articles the lexicon would change, and at what cost. */
  lexicon: createLexiconService,
  /** The voices editors choose from. */
  voices: createVoicesService,
  /** Voice previews and "listen to this paragraph". */
  'voice-preview': () => {
    const client = getService('speech-client');
    const voices = getService('voices');
    return createVoicePreview({ client: () => client, voices: () => voices.list() });
  },
  /** The transcription rows: the only code that writes them. */
  transcriptions: ({ strapi }) => createTranscriptionRepository(strapi),
  /** Speech to text: uploads, following jobs, results. */
  'speech-to-text': createSpeechToTextService,
  /** The Content Manager's permissions, applied to the documents the admin routes act on. */
  'document-permissions': ({ strapi }) => createDocumentPermissions(strapi),
  /** Who may read narrations through the content API (REST and GraphQL). */
  'content-api-access': ({ strapi }) => createContentApiAccess(strapi),
  /** Podcast feeds of narrated types. */
  feeds: createFeedsService,
  /** Listening insights: the player's events and the feeds' downloads, counted in memory and flushed as daily totals. */
  insights: ({ strapi }) =>
    createInsightsService({
      strapi,
      repository: createInsightsRepository(strapi),
      config: getService('settings').config.insights,
      views: () => getService('narration-views'),
    }),
  /** What editors read of listening, as the Content Manager lets them. */
  'insights-views': ({ strapi }) =>
    createInsightsViews({
      strapi,
      repository: createInsightsRepository(strapi),
      permissions: () => getService('document-permissions'),
      content: () => getService('content'),
    }),
} satisfies Record<string, Factory>;
