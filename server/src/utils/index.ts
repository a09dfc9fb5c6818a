import type { ContentApiAccess } from '../access/content-api-access';
import type { BudgetService } from '../credits/budget.service';
import type { LedgerService } from '../credits/ledger.service';
import type { UsageService } from '../credits/usage.service';
import type { DocumentPermissions } from '../access/document-permissions';
import type { FeedsService } from '../feeds/service';
import type { InsightsService } from '../insights/insights.service';
import type { InsightsViews } from '../insights/views.service';
import type { LexiconService } from '../lexicon/service';
import type { ContentReader } from '../narration/content';
import type { NarrationEditorService } from '../narration/editor.service';
import type { NarrationsRepository } from '../queue';
import type { MediaStore } from '../queue';
import type { NarrationsService } from '../narration/narrations.service';
import type { PartsRepository } from '../queue';
import type { PendingRecordings } from '../narration/pending-recordings';
import type { PublicViewsService } from '../narration/public-views.service';
import type { VoiceOverrides } from '../narration/voice-overrides';
import type { NarrationWorker } from '../queue';
import type services from '../services';
import type { SettingsService } from '../settings/service';
import type { SpeechClient } from '../speech-client';
import type { TranscriptionRepository } from '../speech-to-text/repository';
import type { SpeechToTextService } from '../speech-to-text/service';
import type { VoicePreview } from '../voices/preview';
import type { VoicesService } from '../voices/service';
import type { NarrationWebhooks } from '../webhooks/narration-webhooks';

/**
 * Each service registered in services/index.ts, by name. Written out rather than inferred: a
 * factory's type depends on the services it asks for, so inferring would be circular. These are
 * type-only imports, erased from the build: utils/ depends on no feature at run time.
 */
type Services = {
  settings: SettingsService;
  'speech-client': SpeechClient;
  content: ContentReader;
  jobs: NarrationsRepository;
  parts: PartsRepository;
  'pending-recordings': PendingRecordings;
  'voice-overrides': VoiceOverrides;
  media: MediaStore;
  worker: NarrationWorker;
  narrations: NarrationsService;
  'narration-editor': NarrationEditorService;
  'narration-views': PublicViewsService;
  webhooks: NarrationWebhooks;
  lexicon: LexiconService;
  voices: VoicesService;
  'voice-preview': VoicePreview;
  transcriptions: TranscriptionRepository;
  'speech-to-text': SpeechToTextService;
  'document-permissions': DocumentPermissions;
  'content-api-access': ContentApiAccess;
  feeds: FeedsService;
  ledger: LedgerService;
  budget: BudgetService;
  usage: UsageService;
  insights: InsightsService;
  'insights-views': InsightsViews;
};

/** Fails to compile when a service is registered without a type here, or one of a type that differs (types only: nothing runs). */
type Registered = { [Name in keyof typeof services]: ReturnType<(typeof services)[Name]> };
type SameNames<A, B> = [Exclude<keyof A, keyof B>, Exclude<keyof B, keyof A>] extends [never, never] ? true : false;
type TypedOtherwise = { [Name in keyof Services]: Services[Name] extends Registered[Name] ? never : Name }[keyof Services];
type Holds<Condition extends true> = Condition;
type _RegistryChecks = [Holds<SameNames<typeof services, Services>>, Holds<[TypedOtherwise] extends [never] ? true : false>];

/** One of the plugin's services, typed (as Strapi's own plugins do it: i18n's `getService`). */
export function getService<Name extends keyof Services>(name: Name): Services[Name] {
  return strapi.plugin('speech').service(name) as Services[Name];
}
