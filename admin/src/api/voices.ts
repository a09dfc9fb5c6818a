import type { SettingsApi } from './settings';
import { adminUrl } from '../../../shared/contracts/routes';
import { type ListVoicesResponse, type Voice } from './types';

/** The voices editors choose from (a voice's preview is binary: ../binary.ts). */
export function withVoicesEndpoints(api: SettingsApi) {
  const speech = api.injectEndpoints({
    endpoints: (builder) => ({
      getSpeechVoices: builder.query<Voice[], void>({
        query: () => adminUrl('admin-voices.list'),
        transformResponse: (response: ListVoicesResponse) => response.voices,
      }),
    }),
  });
  return speech;
}

export type VoicesApi = ReturnType<typeof withVoicesEndpoints>;
