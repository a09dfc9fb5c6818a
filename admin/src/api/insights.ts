import type { UsageApi } from './usage';
import { adminUrl } from '../../../shared/contracts/routes';
import type { InsightsPeriod } from './tags';
import { type DocumentTarget, type GetDocumentInsightsResponse, type GetInsightsResponse } from './types';

/** Listening insights: the listening page, its home page widget, the edit view's card. */
export function withInsightsEndpoints(api: UsageApi) {
  const speech = api.injectEndpoints({
    endpoints: (builder) => ({
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
    }),
  });
  return speech;
}

export type InsightsApi = ReturnType<typeof withInsightsEndpoints>;
