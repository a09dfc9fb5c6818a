import type { adminApi } from '@strapi/strapi/admin';
import { adminUrl } from '../../../shared/contracts/routes';
import { NO_FEATURES, SESSION_SECONDS, SPEECH_TAGS, STRAPI_WEBHOOK_TAG } from './tags';
import { recordNarratedTypes } from './narratedTypes';
import {
  type GetNarratedTypesResponse,
  type GetSettingsResponse,
  type SiteWebhook,
  type SpeechSettings,
  type TestConnectionResponse,
  type UpdateSettingsRequest,
  type UpdateSettingsResponse,
} from './types';

/** Settings -> Speech: the settings, the narrated types every admin reads, the connection test, and the site's webhooks through Strapi's own admin API (its webhooks permissions apply). */
export function withSettingsEndpoints(api: typeof adminApi) {
  const speech = api.enhanceEndpoints({ addTagTypes: [...SPEECH_TAGS, STRAPI_WEBHOOK_TAG] }).injectEndpoints({
    endpoints: (builder) => ({
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

      testSpeechConnection: builder.mutation<TestConnectionResponse, void>({
        query: () => ({ url: adminUrl('admin-settings.testConnection'), method: 'POST', data: {} }),
      }),

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
    }),
  });
  return speech;
}

export type SettingsApi = ReturnType<typeof withSettingsEndpoints>;
