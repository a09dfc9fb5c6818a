import type { TranscriptionsApi } from './transcriptions';
import { adminUrl } from '../../../shared/contracts/routes';
import { documentTags, type UsagePeriod } from './tags';
import { type GetUsageResponse, type LetThroughRequest, type LetThroughResponse } from './types';

/** Usage: credits by day and the month against the budget (the usage page, the budget card, the home page widget), and letting a held narration through. */
export function withUsageEndpoints(api: TranscriptionsApi) {
  const speech = api.injectEndpoints({
    endpoints: (builder) => ({
      getSpeechUsage: builder.query<GetUsageResponse, UsagePeriod>({
        query: (days) => ({ url: adminUrl('admin-credits.usage'), config: { params: { days: String(days) } } }),
        providesTags: ['SpeechUsage'],
      }),

      /** Submits one narration the budget holds, over this month's budget (`settings.update`). */
      speechLetThrough: builder.mutation<LetThroughResponse, LetThroughRequest['body']>({
        query: (target) => ({ url: adminUrl('admin-narrations.letThrough'), method: 'POST', data: target }),
        invalidatesTags: (_result, _error, target) => [...documentTags(target), 'SpeechUsage'],
      }),
    }),
  });
  return speech;
}

export type UsageApi = ReturnType<typeof withUsageEndpoints>;
