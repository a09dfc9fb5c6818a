import { adminApi } from '@strapi/strapi/admin';
import { withSpeechEndpoints } from './endpoints';

/**
 * The plugin's endpoints on Strapi's own query api (see endpoints.ts), and the React hooks the
 * components use (polled queries read `speechApi.endpoints.x.useQueryState` and subscribe apart).
 */
export const speechApi = withSpeechEndpoints(adminApi);

export const {
  useGetSpeechSettingsQuery,
  useUpdateSpeechSettingsMutation,
  useGetSpeechNarratedTypesQuery,
  useGetSpeechVoicesQuery,
  useTestSpeechConnectionMutation,
  useGetSpeechCostQuery,
  useResumeSpeechQueueMutation,
  useGetSpeechEstimateManyQuery,
  useGetSpeechLexiconAffectedQuery,
  useSpeechNarrateManyMutation,
  useGetSpeechEstimateQuery,
  useSpeechNarrateMutation,
  useSpeechRegenerateMutation,
  useSpeechCancelMutation,
  useSetSpeechVoiceMutation,
  useGetSpeechParagraphsQuery,
  useGetSpeechPassagesQuery,
  useGetSpeechNarrationVersionsQuery,
  useSetSpeechPassageVoiceMutation,
  useSaveSpeechTranscriptionMutation,
  useGetSpeechSiteWebhooksQuery,
  useUpdateSpeechSiteWebhookMutation,
  useGetSpeechUsageQuery,
  useSpeechLetThroughMutation,
  useGetSpeechInsightsQuery,
  useGetSpeechDocumentInsightsQuery,
  useGetSpeechQueueQuery,
  useGetSpeechQueueEntriesQuery,
  useGetSpeechRetryEstimateQuery,
  useSpeechRetryFailedMutation,
  useSpeechCancelQueuedMutation,
  useGetSpeechBackfillsQuery,
  useGetSpeechBackfillEstimateQuery,
  useStartSpeechBackfillMutation,
  useActOnSpeechBackfillMutation,
} = speechApi;
