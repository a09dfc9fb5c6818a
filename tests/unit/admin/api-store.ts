/**
 * The admin's query endpoints (admin/src/api/endpoints.ts) on a real RTK Query store, with a
 * fake base query in place of Strapi's fetch client: what the admin would send, and what it keeps.
 */
import { configureStore } from '@reduxjs/toolkit';
import { createApi } from '@reduxjs/toolkit/query';
import { withSpeechEndpoints } from '../../../admin/src/api/endpoints';

export interface SentRequest {
  url: string;
  method: string;
  data?: unknown;
  params?: unknown;
}

/** A server: answers a request, or throws `{ status, error }` for a Strapi error body. */
export type FakeServer = (request: SentRequest) => unknown | Promise<unknown>;

const open: Array<() => void> = [];

/** Ends every store's timers (cache lifetimes, polling): call after each test. */
export function closeAdminStores() {
  open.splice(0).forEach((close) => close());
}

export function adminStore(server: FakeServer) {
  const requests: SentRequest[] = [];
  const base = createApi({
    // Strapi's adminApi has this path; the endpoints only need an api of that shape.
    reducerPath: 'adminApi',
    baseQuery: async (query: string | { url: string; method?: string; data?: unknown; config?: { params?: unknown } }) => {
      const request: SentRequest =
        typeof query === 'string'
          ? { url: query, method: 'GET' }
          : { url: query.url, method: query.method ?? 'GET', data: query.data, params: query.config?.params };
      requests.push(request);
      try {
        return { data: await server(request) };
      } catch (caught) {
        // Strapi's base query answers the body's `error` object.
        return { error: (caught as { error: unknown }).error };
      }
    },
    tagTypes: [],
    endpoints: () => ({}),
  });
  const api = withSpeechEndpoints(base as unknown as Parameters<typeof withSpeechEndpoints>[0]);
  const store = configureStore({
    reducer: { [base.reducerPath]: base.reducer },
    middleware: (defaults) => defaults({ serializableCheck: false, immutableCheck: false }).concat(base.middleware),
  });
  open.push(() => store.dispatch(api.util.resetApiState()));
  return { api, store, requests, sent: (url: string) => requests.filter((request) => request.url === url) };
}
