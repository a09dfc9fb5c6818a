import { adminApi } from '@strapi/strapi/admin';
import { withSpeechEndpoints } from './endpoints';

/** The plugin's endpoints on Strapi's own query api (see endpoints.ts), and their React hooks. */
export const speechApi = withSpeechEndpoints(adminApi);

export const {
  useGetSettingsQuery,
  useUpdateSettingsMutation,
  useGetNarratedTypesQuery,
  useGetVoicesQuery,
  useTestConnectionMutation,
  useCostQuery,
  useResumeQueueMutation,
  useGetListStatusesQuery,
  useEstimateManyQuery,
  useNarrateManyMutation,
  useGetDocumentNarrationsQuery,
  useEstimateQuery,
  useNarrateMutation,
  useRegenerateMutation,
  useCancelMutation,
  useSetVoiceMutation,
  useParagraphsQuery,
  useListTranscriptionsQuery,
  useGetTranscriptionQuery,
  useSaveTranscriptionMutation,
} = speechApi;
