import type { adminApi } from '@strapi/strapi/admin';
import { adminUrl } from '../../../shared/contracts/routes';
import { recordNarratedTypes } from './narratedTypes';
import {
  TRANSCRIPTION_LIST_LIMIT,
  type CancelRequest,
  type CancelResponse,
  type CostRequest,
  type CostResponse,
  type DocumentNarrationsRequest,
  type DocumentNarrationsResponse,
  type DocumentTarget,
  type EstimateManyRequest,
  type EstimateManyResponse,
  type EstimateRequest,
  type EstimateResponse,
  type GetDocumentInsightsResponse,
  type GetInsightsResponse,
  type GetNarratedTypesResponse,
  type GetSettingsResponse,
  type GetTranscriptionResponse,
  type GetUsageResponse,
  type LexiconAffectedRequest,
  type LexiconAffectedResponse,
  type LetThroughRequest,
  type LetThroughResponse,
  type ListTranscriptionsRequest,
  type ListTranscriptionsResponse,
  type ListVoicesResponse,
  type NarrateManyRequest,
  type NarrateManyResponse,
  type NarrateRequest,
  type NarrateResponse,
  type NarrationStatusesRequest,
  type NarrationStatusesResponse,
  type ParagraphsRequest,
  type ParagraphsResponse,
  type QueueState,
  type RegenerateRequest,
  type RegenerateResponse,
  type ResumeQueueResponse,
  type SaveTranscriptionRequest,
  type SaveTranscriptionResponse,
  type ServerFeatures,
  type SetVoiceRequest,
  type SetVoiceResponse,
  type SiteWebhook,
  type SpeechSettings,
  type TestConnectionResponse,
  type TranscriptDownloadFormat,
  type TranscriptionDetail,
  type TranscriptionView,
  type UpdateSettingsRequest,
  type UpdateSettingsResponse,
  type Voice,
} from './types';

/**
 * The plugin's JSON admin routes as endpoints of Strapi's own RTK Query api (`adminApi`), the way
 * Strapi's i18n plugin builds its admin API: requests go through the admin fetch client (admin JWT,
 * refresh on a 401) and results live in the admin's query cache, refreshed through tags.
 * Binary answers and the upload with progress are not here (see binary.ts, transcriptions.ts).
 * What each route is sent and answers is the server's contract (shared/contracts, see types.ts).
 *
 * Every plugin injects into the same `adminApi`, whose endpoint names are one namespace (a name
 * another plugin already injected silently keeps ITS definition): every name here says speech.
 *
 * Takes the api as an argument so unit tests run the same definitions against a test store;
 * speechApi.ts binds them to Strapi's `adminApi`. No runtime import from Strapi here.
 */

/** How many recent transcriptions the Transcribe page lists (as many as the server lists when not told). */
export const RECENT_TRANSCRIPTIONS = TRANSCRIPTION_LIST_LIMIT.default;

export const SPEECH_TAGS = ['SpeechNarration', 'SpeechEstimate', 'SpeechTranscription', 'SpeechUsage'] as const;

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
const STRAPI_WEBHOOK_TAG = 'Webhook' as const;

/** Statuses of the rows of one list page; `documentIds` says which documents the answer covers. */
export type ListStatuses = NarrationStatusesResponse & { documentIds: string[] };

/** Tag of every narration of a content type (what a list page shows). */
const typeTag = (contentType: string) => ({ type: 'SpeechNarration' as const, id: `type:${contentType}` });
const documentTags = (target: { contentType: string; documentId: string }) => [
  typeTag(target.contentType),
  { type: 'SpeechNarration' as const, id: target.documentId },
  { type: 'SpeechEstimate' as const, id: target.documentId },
];
const transcriptionTag = (id: number) => ({ type: 'SpeechTranscription' as const, id });

/** Narrated types are known for the whole session (they change only through the settings page). */
const SESSION_SECONDS = 24 * 60 * 60;

/** The features of a server whose settings are not loaded: none announced. */
const NO_FEATURES: ServerFeatures = { voicePreview: false, transcription: false };

type AdminApi = typeof adminApi;

/**
 * Puts a job's new view in the recent list, if listed. The list may still be on its first
 * request (a cache entry without data yet): then there is nothing to update.
 */
function replaceRow(list: ListTranscriptionsResponse | undefined, view: TranscriptionView) {
  const index = list?.data.findIndex((row) => row.id === view.id) ?? -1;
  if (list && index >= 0) list.data[index] = view;
}

export function withSpeechEndpoints(api: AdminApi) {
  const speech = api.enhanceEndpoints({ addTagTypes: [...SPEECH_TAGS, STRAPI_WEBHOOK_TAG] }).injectEndpoints({
    endpoints: (builder) => ({
      /* Settings page */

      /** Read afresh each time the settings page opens (nothing kept once it closes). */
      getSpeechSettings: builder.query<GetSettingsResponse, void>({
        query: () => adminUrl('admin-settings.get'),
        keepUnusedDataFor: 0,
      }),

      updateSpeechSettings: builder.mutation<SpeechSettings, UpdateSettingsRequest['body']>({
        query: (changes) => ({ url: adminUrl('admin-settings.update'), method: 'PUT', data: changes }),
        transformResponse: (response: UpdateSettingsResponse) => response.settings,
        // A new budget changes what the usage view and the home page widget show against it.
        invalidatesTags: ['SpeechUsage'],
        async onQueryStarted(_changes, { dispatch, queryFulfilled }) {
          const { data: saved } = await queryFulfilled.catch(() => ({ data: null }));
          if (!saved) return;
          let features = NO_FEATURES;
          dispatch(
            speech.util.updateQueryData('getSpeechSettings', undefined, (draft) => {
              if (!draft) return;
              draft.settings = saved;
              // A plain copy: the draft is gone once the update is done.
              features = { ...draft.features };
            })
          );
          // The list view and the edit view follow the saved types at once, without a request.
          dispatch(speech.util.upsertQueryData('getSpeechNarratedTypes', undefined, { contentTypes: saved.contentTypes, features }));
        },
      }),

      /** Which types are narrated: readable by every logged-in admin, not only settings readers. */
      getSpeechNarratedTypes: builder.query<GetNarratedTypesResponse, void>({
        query: () => adminUrl('admin-settings.narratedTypes'),
        keepUnusedDataFor: SESSION_SECONDS,
        async onQueryStarted(_arg, { queryFulfilled }) {
          try {
            const { data } = await queryFulfilled;
            recordNarratedTypes({ status: 'ready', contentTypes: data.contentTypes, features: data.features });
          } catch {
            recordNarratedTypes({ status: 'error', contentTypes: {}, features: {} });
          }
        },
      }),

      getSpeechVoices: builder.query<Voice[], void>({
        query: () => adminUrl('admin-voices.list'),
        transformResponse: (response: ListVoicesResponse) => response.voices,
      }),

      testSpeechConnection: builder.mutation<TestConnectionResponse, void>({
        query: () => ({ url: adminUrl('admin-settings.testConnection'), method: 'POST', data: {} }),
      }),

      getSpeechCost: builder.query<CostResponse, string>({
        query: (text) => ({ url: adminUrl('admin-narrations.cost'), method: 'POST', data: { text } satisfies CostRequest['body'] }),
      }),

      resumeSpeechQueue: builder.mutation<QueueState, void>({
        query: () => ({ url: adminUrl('admin-narrations.resumeQueue'), method: 'POST', data: {} }),
        transformResponse: (response: ResumeQueueResponse) => response.queue,
        invalidatesTags: ['SpeechNarration'],
        async onQueryStarted(_arg, { dispatch, queryFulfilled }) {
          const { data: queue } = await queryFulfilled.catch(() => ({ data: null }));
          if (!queue) return;
          dispatch(
            speech.util.updateQueryData('getSpeechSettings', undefined, (draft) => {
              if (draft) draft.queue = queue;
            })
          );
        },
      }),

      /* Usage: credits by day, the month against the budget (the usage page, the budget card, the home page widget) */

      getSpeechUsage: builder.query<GetUsageResponse, UsagePeriod>({
        query: (days) => ({ url: adminUrl('admin-credits.usage'), config: { params: { days: String(days) } } }),
        providesTags: ['SpeechUsage'],
      }),

      /* Listening insights (the listening page, its home page widget, the edit view's card) */

      /** Only what the caller may read in the Content Manager is counted (the server filters). */
      getSpeechInsights: builder.query<GetInsightsResponse, InsightsPeriod>({
        query: (days) => ({ url: adminUrl('admin-insights.site'), config: { params: { days: String(days) } } }),
      }),

      /** One document's listening, in its locale (403 without the Content Manager's read on it). */
      getSpeechDocumentInsights: builder.query<GetDocumentInsightsResponse, DocumentTarget & { days: number }>({
        query: ({ contentType, documentId, locale, days }) => ({
          url: adminUrl('admin-insights.document', { documentId }),
          config: { params: locale ? { contentType, locale, days: String(days) } : { contentType, days: String(days) } },
        }),
      }),

      /** Submits one narration the budget holds, over this month's budget (`settings.update`). */
      speechLetThrough: builder.mutation<LetThroughResponse, LetThroughRequest['body']>({
        query: (target) => ({ url: adminUrl('admin-credits.letThrough'), method: 'POST', data: target }),
        invalidatesTags: (_result, _error, target) => [...documentTags(target), 'SpeechUsage'],
      }),

      /* The site's webhooks, through Strapi's own admin API (its webhooks permissions apply) */

      getSpeechSiteWebhooks: builder.query<SiteWebhook[], void>({
        query: () => '/admin/webhooks',
        transformResponse: (response: { data: SiteWebhook[] }) => response.data,
        providesTags: (result) => [
          ...(result ?? []).map(({ id }) => ({ type: STRAPI_WEBHOOK_TAG, id })),
          { type: STRAPI_WEBHOOK_TAG, id: 'LIST' },
        ],
      }),

      /** Strapi validates the whole webhook on update: name, url, headers and events go together. */
      updateSpeechSiteWebhook: builder.mutation<SiteWebhook, SiteWebhook>({
        query: ({ id, name, url, headers, events, isEnabled }) => ({
          url: `/admin/webhooks/${encodeURIComponent(id)}`,
          method: 'PUT',
          data: { name, url, headers, events, isEnabled },
        }),
        transformResponse: (response: { data: SiteWebhook }) => response.data,
        invalidatesTags: (_result, _error, { id }) => [{ type: STRAPI_WEBHOOK_TAG, id }],
        async onQueryStarted(_webhook, { dispatch, queryFulfilled }) {
          const { data: saved } = await queryFulfilled.catch(() => ({ data: null }));
          if (!saved) return;
          dispatch(
            speech.util.updateQueryData('getSpeechSiteWebhooks', undefined, (draft) => {
              const index = draft?.findIndex((webhook) => webhook.id === saved.id) ?? -1;
              if (draft && index >= 0) draft[index] = saved;
            })
          );
        },
      }),

      /* List view: statuses of a whole page in one request */

      getSpeechListStatuses: builder.query<ListStatuses, NarrationStatusesRequest['body']>({
        query: ({ contentType, documentIds }) => ({
          url: adminUrl('admin-narrations.statuses'),
          method: 'POST',
          data: { contentType, documentIds } satisfies NarrationStatusesRequest['body'],
        }),
        transformResponse: (response: NarrationStatusesResponse, _meta, { documentIds }) => ({ ...response, documentIds }),
        providesTags: (_result, _error, { contentType }) => [typeTag(contentType)],
      }),

      /** Asked afresh each time the bulk dialog opens (nothing kept once it closes). */
      getSpeechEstimateMany: builder.query<EstimateManyResponse, EstimateManyRequest['body']>({
        query: (target) => ({ url: adminUrl('admin-narrations.estimateMany'), method: 'POST', data: target }),
        keepUnusedDataFor: 0,
        providesTags: (_result, _error, target) => target.documentIds.map((id) => ({ type: 'SpeechEstimate' as const, id })),
      }),

      /** What the saved lexicon would change on one page of a type's published documents (bulk dialog). */
      getSpeechLexiconAffected: builder.query<LexiconAffectedResponse, LexiconAffectedRequest['body'] & { page: number; pageSize: number }>(
        {
          query: (target) => ({ url: adminUrl('admin-lexicon.affected'), method: 'POST', data: target }),
          keepUnusedDataFor: 0,
          providesTags: (_result, _error, target) => [typeTag(target.contentType)],
        }
      ),

      speechNarrateMany: builder.mutation<NarrateManyResponse, NarrateManyRequest['body']>({
        query: (target) => ({ url: adminUrl('admin-narrations.narrateMany'), method: 'POST', data: target }),
        invalidatesTags: (_result, _error, target) =>
          target.documentIds.flatMap((documentId) => documentTags({ contentType: target.contentType, documentId })),
      }),

      /* Edit view panel. `version` (the document's save/publish state) is part of the cache key only. */

      getSpeechDocumentNarrations: builder.query<DocumentNarrationsResponse, DocumentTarget & { version?: string | null }>({
        query: ({ contentType, documentId, locale }) => ({
          url: adminUrl('admin-narrations.forDocument', {
            documentId: documentId satisfies DocumentNarrationsRequest['params']['documentId'],
          }),
          config: { params: (locale ? { contentType, locale } : { contentType }) satisfies DocumentNarrationsRequest['query'] },
        }),
        providesTags: (_result, _error, target) => [{ type: 'SpeechNarration', id: target.documentId }],
      }),

      /** `status` and `completedAt` of the shown narration are part of the key: the estimate follows them. */
      getSpeechEstimate: builder.query<
        EstimateResponse,
        DocumentTarget & { version?: string | null; status?: string | null; completedAt?: string | null }
      >({
        query: ({ contentType, documentId, locale }) => ({
          url: adminUrl('admin-narrations.estimate'),
          method: 'POST',
          data: { contentType, documentId, locale } satisfies EstimateRequest['body'],
        }),
        providesTags: (_result, _error, target) => [{ type: 'SpeechEstimate', id: target.documentId }],
      }),

      speechNarrate: builder.mutation<NarrateResponse, NarrateRequest['body']>({
        query: (target) => ({ url: adminUrl('admin-narrations.narrateNow'), method: 'POST', data: target }),
        invalidatesTags: (_result, _error, target) => documentTags(target),
      }),

      speechRegenerate: builder.mutation<RegenerateResponse, RegenerateRequest['body']>({
        query: (target) => ({ url: adminUrl('admin-narrations.regenerate'), method: 'POST', data: target }),
        invalidatesTags: (_result, _error, target) => documentTags(target),
      }),

      speechCancel: builder.mutation<CancelResponse, CancelRequest['body']>({
        query: (target) => ({ url: adminUrl('admin-narrations.cancel'), method: 'POST', data: target }),
        invalidatesTags: (_result, _error, target) => documentTags(target),
      }),

      setSpeechVoice: builder.mutation<SetVoiceResponse, SetVoiceRequest['body']>({
        query: (target) => ({ url: adminUrl('admin-narrations.setVoice'), method: 'PUT', data: target }),
        invalidatesTags: (_result, _error, target) => documentTags(target),
      }),

      /** The draft's paragraphs and the voice they would be read in; `refreshKey` is part of the cache key only. */
      getSpeechParagraphs: builder.query<ParagraphsResponse, DocumentTarget & { refreshKey?: string }>({
        query: ({ contentType, documentId, locale }) => ({
          url: adminUrl('admin-narrations.paragraphs'),
          method: 'POST',
          data: { contentType, documentId, locale } satisfies ParagraphsRequest['body'],
        }),
      }),

      /* Speech to text (the upload and downloads are in transcriptions.ts) */

      getSpeechTranscriptions: builder.query<ListTranscriptionsResponse, number>({
        query: (limit) => ({
          url: adminUrl('admin-transcriptions.list'),
          // Query strings carry text: the number as the server reads it back (`z.coerce`).
          config: { params: { limit: String(limit), mine: 'true' } satisfies Record<keyof ListTranscriptionsRequest['query'], string> },
        }),
        providesTags: [{ type: 'SpeechTranscription', id: 'LIST' }],
      }),

      getSpeechTranscription: builder.query<TranscriptionDetail, number>({
        query: (id) => adminUrl('admin-transcriptions.findOne', { id }),
        transformResponse: (response: GetTranscriptionResponse) => response.data,
        providesTags: (_result, _error, id) => [transcriptionTag(id)],
        // The open job's status also updates its row in the recent list (no extra request).
        async onQueryStarted(_id, { dispatch, queryFulfilled }) {
          const { data: job } = await queryFulfilled.catch(() => ({ data: null }));
          if (!job) return;
          const { result: _result, ...view } = job;
          dispatch(speech.util.updateQueryData('getSpeechTranscriptions', RECENT_TRANSCRIPTIONS, (draft) => replaceRow(draft, view)));
        },
      }),

      saveSpeechTranscription: builder.mutation<
        SaveTranscriptionResponse,
        SaveTranscriptionRequest['params'] & { format?: TranscriptDownloadFormat }
      >({
        query: ({ id, format }) => ({
          url: adminUrl('admin-transcriptions.save', { id }),
          method: 'POST',
          data: (format ? { format } : {}) satisfies SaveTranscriptionRequest['body'],
        }),
        async onQueryStarted({ id }, { dispatch, queryFulfilled }) {
          const { data: answer } = await queryFulfilled.catch(() => ({ data: null }));
          if (!answer) return;
          dispatch(
            speech.util.updateQueryData('getSpeechTranscription', id, (draft) =>
              draft ? { ...draft, ...answer.data, result: draft.result } : draft
            )
          );
          dispatch(
            speech.util.updateQueryData('getSpeechTranscriptions', RECENT_TRANSCRIPTIONS, (draft) => replaceRow(draft, answer.data))
          );
        },
      }),
    }),
  });
  return speech;
}

export type SpeechEndpoints = ReturnType<typeof withSpeechEndpoints>;
