import { adminUrl } from '../../../shared/contracts/routes';
import type { InsightsApi } from './insights';
import type {
  QueueCancelResponse,
  QueueEntriesRequest,
  QueueEntriesResponse,
  QueueRetryEstimateResponse,
  QueueRetryResponse,
  QueueSelection,
  QueueSummaryResponse,
} from './types';

/** The queue page: the whole queue's figures (polled while open), its lists, retry and cancel. */
export function withQueueEndpoints(api: InsightsApi) {
  return api.injectEndpoints({
    endpoints: (builder) => ({
      getSpeechQueue: builder.query<QueueSummaryResponse, { watch: string[] }>({
        query: ({ watch }) => ({
          url: adminUrl('admin-queue.summary'),
          config: { params: watch.length > 0 ? { watch: watch.join(',') } : {} },
        }),
        providesTags: ['SpeechQueue'],
      }),

      getSpeechQueueEntries: builder.query<QueueEntriesResponse, QueueEntriesRequest['query']>({
        query: (params) => ({
          url: adminUrl('admin-queue.entries'),
          config: { params: Object.fromEntries(Object.entries(params).filter(([, value]) => value !== undefined && value !== '')) },
        }),
        providesTags: ['SpeechQueue'],
      }),

      /** What a retry would send and cost; nothing is sent. */
      getSpeechRetryEstimate: builder.query<QueueRetryEstimateResponse, QueueSelection>({
        query: (selection) => ({ url: adminUrl('admin-queue.estimateRetry'), method: 'POST', data: selection }),
        keepUnusedDataFor: 0,
      }),

      speechRetryFailed: builder.mutation<QueueRetryResponse, QueueSelection>({
        query: (selection) => ({ url: adminUrl('admin-queue.retry'), method: 'POST', data: selection }),
        invalidatesTags: ['SpeechQueue', 'SpeechNarration', 'SpeechUsage'],
      }),

      speechCancelQueued: builder.mutation<QueueCancelResponse, { articleIds: string[] }>({
        query: (body) => ({ url: adminUrl('admin-queue.cancel'), method: 'POST', data: body }),
        invalidatesTags: ['SpeechQueue', 'SpeechNarration'],
      }),
    }),
  });
}

export type QueueApi = ReturnType<typeof withQueueEndpoints>;
