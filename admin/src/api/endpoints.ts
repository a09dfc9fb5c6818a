import type { adminApi } from '@strapi/strapi/admin';
import { withBackfillEndpoints } from './backfills';
import { withInsightsEndpoints } from './insights';
import { withNarrationsEndpoints } from './narrations';
import { withQueueEndpoints } from './queue';
import { withSettingsEndpoints } from './settings';
import { withTranscriptionsEndpoints } from './transcriptions';
import { withUsageEndpoints } from './usage';
import { withVoicesEndpoints } from './voices';

export {
  DOCUMENT_INSIGHTS_DAYS,
  INSIGHTS_PERIODS,
  RECENT_TRANSCRIPTIONS,
  SPEECH_TAGS,
  USAGE_PERIODS,
  type InsightsPeriod,
  type ListStatuses,
  type UsagePeriod,
} from './tags';

/**
 * The plugin's JSON admin routes as endpoints of Strapi's own RTK Query api (`adminApi`), the way
 * Strapi's i18n plugin builds its admin API: requests go through the admin fetch client (admin JWT,
 * refresh on a 401) and results live in the admin's query cache, refreshed through tags.
 * One module per server resource (settings.ts, voices.ts, narrations.ts, transcriptions.ts,
 * usage.ts, insights.ts, queue.ts, backfills.ts). Binary answers are in binary.ts; the upload with progress in transcriptionFiles.ts.
 * What each route is sent and answers is the server's contract (shared/contracts, see types.ts).
 *
 * Every plugin injects into the same `adminApi`, whose endpoint names are one namespace (a name
 * another plugin already injected silently keeps ITS definition): every name here says speech.
 *
 * Takes the api as an argument so unit tests run the same definitions against a test store;
 * speechApi.ts binds them to Strapi's `adminApi`. No runtime import from Strapi here.
 */
export function withSpeechEndpoints(api: typeof adminApi) {
  // Each resource's module adds its endpoints to those before it, so that one may update another's cache.
  return withBackfillEndpoints(
    withQueueEndpoints(
      withInsightsEndpoints(
        withUsageEndpoints(withTranscriptionsEndpoints(withNarrationsEndpoints(withVoicesEndpoints(withSettingsEndpoints(api)))))
      )
    )
  );
}

export type SpeechEndpoints = ReturnType<typeof withSpeechEndpoints>;
