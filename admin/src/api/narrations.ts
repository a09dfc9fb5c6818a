import type { VoicesApi } from './voices';
import { adminUrl } from '../../../shared/contracts/routes';
import { documentTags, typeTag, type ListStatuses } from './tags';
import {
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
  type LexiconAffectedRequest,
  type LexiconAffectedResponse,
  type NarrateManyRequest,
  type NarrateManyResponse,
  type NarrateRequest,
  type NarrateResponse,
  type NarrationStatusesRequest,
  type NarrationVersionsRequest,
  type NarrationVersionsResponse,
  type NarrationStatusesResponse,
  type ParagraphsRequest,
  type ParagraphsResponse,
  type PassagesRequest,
  type PassagesResponse,
  type QueueState,
  type RegenerateRequest,
  type RegenerateResponse,
  type ResumeQueueResponse,
  type SetPassageVoiceRequest,
  type SetPassageVoiceResponse,
  type SetVoiceRequest,
  type SetVoiceResponse,
} from './types';

/** Narrations: the list view's statuses and bulk action, the edit view's panel (estimates, narrate, regenerate, cancel, voice, paragraphs), the cost preview and the queue's resume. `version` (the document's save/publish state) is part of a panel query's cache key only. */
export function withNarrationsEndpoints(api: VoicesApi) {
  const speech = api.injectEndpoints({
    endpoints: (builder) => ({
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
          query: (target) => ({ url: adminUrl('admin-narrations.lexiconAffected'), method: 'POST', data: target }),
          keepUnusedDataFor: 0,
          providesTags: (_result, _error, target) => [typeTag(target.contentType)],
        }
      ),

      speechNarrateMany: builder.mutation<NarrateManyResponse, NarrateManyRequest['body']>({
        query: (target) => ({ url: adminUrl('admin-narrations.narrateMany'), method: 'POST', data: target }),
        invalidatesTags: (_result, _error, target) =>
          target.documentIds.flatMap((documentId) => documentTags({ contentType: target.contentType, documentId })),
      }),

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

      /** The draft's passages, their languages and voices (docs/passage-voices.md); `refreshKey` is part of the cache key only. */
      getSpeechPassages: builder.query<PassagesResponse, DocumentTarget & { refreshKey?: string }>({
        query: ({ contentType, documentId, locale }) => ({
          url: adminUrl('admin-narrations.passages'),
          method: 'POST',
          data: { contentType, documentId, locale } satisfies PassagesRequest['body'],
        }),
        providesTags: (_result, _error, target) => documentTags(target),
      }),

      /** A narration's stored versions; `completedAt` (of the shown narration) is part of the cache key only. */
      getSpeechNarrationVersions: builder.query<NarrationVersionsResponse, { articleId: string; completedAt?: string | null }>({
        query: ({ articleId }) => ({
          url: adminUrl('admin-narrations.versions', { articleId: articleId satisfies NarrationVersionsRequest['params']['articleId'] }),
        }),
      }),

      setSpeechPassageVoice: builder.mutation<SetPassageVoiceResponse, SetPassageVoiceRequest['body']>({
        query: (target) => ({ url: adminUrl('admin-narrations.setPassageVoice'), method: 'PUT', data: target }),
        invalidatesTags: (_result, _error, target) => documentTags(target),
      }),
    }),
  });
  return speech;
}

export type NarrationsApi = ReturnType<typeof withNarrationsEndpoints>;
