import { adminUrl } from '../../../shared/contracts/routes';
import type { QueueApi } from './queue';
import type {
  BackfillAction,
  BackfillActionResponse,
  BackfillEstimateResponse,
  BackfillListResponse,
  BackfillStartResponse,
  BackfillTarget,
} from './types';

/** Archive backfills on the queue page: the cost first, then started, followed and steered. */
export function withBackfillEndpoints(api: QueueApi) {
  return api.injectEndpoints({
    endpoints: (builder) => ({
      getSpeechBackfills: builder.query<BackfillListResponse, void>({
        query: () => ({ url: adminUrl('admin-backfills.list') }),
        providesTags: ['SpeechQueue'],
      }),

      /** What a backfill would narrate and cost; nothing is queued. */
      getSpeechBackfillEstimate: builder.query<BackfillEstimateResponse, BackfillTarget>({
        query: (target) => ({ url: adminUrl('admin-backfills.estimate'), method: 'POST', data: target }),
        keepUnusedDataFor: 0,
      }),

      startSpeechBackfill: builder.mutation<BackfillStartResponse, BackfillTarget>({
        query: (target) => ({ url: adminUrl('admin-backfills.start'), method: 'POST', data: target }),
        invalidatesTags: ['SpeechQueue'],
      }),

      actOnSpeechBackfill: builder.mutation<BackfillActionResponse, { id: number; action: BackfillAction }>({
        query: ({ id, action }) => ({ url: adminUrl('admin-backfills.act', { id, action }), method: 'POST', data: {} }),
        invalidatesTags: ['SpeechQueue'],
      }),
    }),
  });
}
