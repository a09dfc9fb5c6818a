import type { ContentApiAccess } from '../access/content-api-access';
import type { DocumentPermissions } from '../access/document-permissions';
import type { ContentReader } from '../narration/content';
import type { JobsRepository } from '../narration/jobs.repository';
import type { MediaStore } from '../narration/media';
import type { PendingRecordings } from '../narration/pending-recordings';
import type { VoiceOverrides } from '../narration/voice-overrides';
import type { NarrationWorker } from '../narration/worker';
import type { FeedsService } from '../services/feeds';
import type { NarrationsService } from '../services/narrations';
import type { SettingsService } from '../services/settings';
import type { SpeechToTextService } from '../services/speech-to-text';
import type { VoicesService } from '../services/voices';
import type { SpeechClient } from '../speech-client';
import type { TranscriptionRepository } from '../speech-to-text/repository';
import type { VoicePreview } from '../voice-preview/preview';
import type { NarrationWebhooks } from '../webhooks/narration-webhooks';
import type services from '../services';

/** Each service registered in services/index.ts, by name. */
type Services = {
  settings: SettingsService;
  content: ContentReader;
  jobs: JobsRepository;
  media: MediaStore;
  'voice-overrides': VoiceOverrides;
  'pending-recordings': PendingRecordings;
  voices: VoicesService;
  'speech-client': SpeechClient;
  worker: NarrationWorker;
  narrations: NarrationsService;
  transcriptions: TranscriptionRepository;
  'speech-to-text': SpeechToTextService;
  'voice-preview': VoicePreview;
  'document-permissions': DocumentPermissions;
  'content-api-access': ContentApiAccess;
  webhooks: NarrationWebhooks;
  feeds: FeedsService;
};

/** Fails to compile when a service is registered without a type here, or the other way round. */
type SameNames<A, B> = [Exclude<keyof A, keyof B>, Exclude<keyof B, keyof A>] extends [never, never] ? true : false;
const servicesAllTyped: SameNames<typeof services, Services> = true;
void servicesAllTyped;

/** One of the plugin's services, typed (as Strapi's own plugins do it: i18n's `getService`). */
export function getService<Name extends keyof Services>(name: Name): Services[Name] {
  return strapi.plugin('speech').service(name) as Services[Name];
}
