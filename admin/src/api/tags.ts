import {
  TRANSCRIPTION_LIST_LIMIT,
  type ListTranscriptionsResponse,
  type NarrationStatusesResponse,
  type ServerFeatures,
  type TranscriptionView,
} from './types';

/** What the resources' endpoints share: the cache's tags and the periods the pages offer. */

/** How many recent transcriptions the Transcribe page lists (as many as the server lists when not told). */
export const RECENT_TRANSCRIPTIONS = TRANSCRIPTION_LIST_LIMIT.default;

export const SPEECH_TAGS = ['SpeechNarration', 'SpeechEstimate', 'SpeechTranscription', 'SpeechUsage', 'SpeechQueue'] as const;

/** The periods GET /speech/usage answers (`days`), in days. */
export const USAGE_PERIODS = [30, 90] as const;
export type UsagePeriod = (typeof USAGE_PERIODS)[number];

/** The periods GET /speech/insights and its CSV answer (`days`), in days. */
export const INSIGHTS_PERIODS = [7, 30, 90] as const;
export type InsightsPeriod = (typeof INSIGHTS_PERIODS)[number];

/** The edit view's listening card counts the last 30 days. */
export const DOCUMENT_INSIGHTS_DAYS = 30;

/**
 * The tag Strapi's own webhooks service (Settings -> Webhooks) gives the site's webhooks: a change
 * made from the Speech settings shows at once on Strapi's pages, and the other way round.
 */
export const STRAPI_WEBHOOK_TAG = 'Webhook' as const;

/** Statuses of the rows of one list page; `documentIds` says which documents the answer covers. */
export type ListStatuses = NarrationStatusesResponse & { documentIds: string[] };

/** Tag of every narration of a content type (what a list page shows). */
export const typeTag = (contentType: string) => ({ type: 'SpeechNarration' as const, id: `type:${contentType}` });
export const documentTags = (target: { contentType: string; documentId: string }) => [
  typeTag(target.contentType),
  { type: 'SpeechNarration' as const, id: target.documentId },
  { type: 'SpeechEstimate' as const, id: target.documentId },
];
export const transcriptionTag = (id: number) => ({ type: 'SpeechTranscription' as const, id });

/** Narrated types are known for the whole session (they change only through the settings page). */
export const SESSION_SECONDS = 24 * 60 * 60;

/** The features of a server whose settings are not loaded: none announced. */
export const NO_FEATURES: ServerFeatures = { voicePreview: false, transcription: false };

/**
 * Puts a job's new view in the recent list, if listed. The list may still be on its first
 * request (a cache entry without data yet): then there is nothing to update.
 */
export function replaceRow(list: ListTranscriptionsResponse | undefined, view: TranscriptionView) {
  const index = list?.data.findIndex((row) => row.id === view.id) ?? -1;
  if (list && index >= 0) list.data[index] = view;
}
