import * as React from 'react';
import { getFetchClient } from '@strapi/strapi/admin';
import { rememberAdminToken } from './binary';
import { createSpeechApi } from './client';
import type { ContentTypeNarration, SettingsResponse } from './types';

type TriggerOnly = Pick<ContentTypeNarration, 'trigger'>;

/**
 * Which content types are narrated, known before the content manager asks. The list view's
 * column hook is synchronous, so this is loaded once per login (from a redux middleware that
 * sees the admin token appear) and kept in memory; the settings page refreshes it after a save.
 */

type Status = 'idle' | 'loading' | 'ready' | 'error';

interface Snapshot {
  status: Status;
  contentTypes: Record<string, TriggerOnly>;
  features: NonNullable<SettingsResponse['features']>;
}

let snapshot: Snapshot = { status: 'idle', contentTypes: {}, features: {} };
let inflight: Promise<void> | null = null;
const listeners = new Set<() => void>();

function set(next: Snapshot) {
  snapshot = next;
  listeners.forEach((listener) => listener());
}

export const narratedTypes = {
  get: () => snapshot,
  subscribe(listener: () => void) {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
  /** Loads once; `force` reloads (after a settings save). */
  load(force = false): Promise<void> {
    if (inflight) return inflight;
    if (!force && (snapshot.status === 'ready' || snapshot.status === 'loading')) return Promise.resolve();
    set({ ...snapshot, status: 'loading' });
    inflight = createSpeechApi(getFetchClient())
      .getNarratedTypes()
      .then((response) => set({ status: 'ready', contentTypes: response.contentTypes, features: response.features ?? {} }))
      .catch(() => set({ status: 'error', contentTypes: {}, features: {} }))
      .finally(() => {
        inflight = null;
      });
    return inflight;
  },
  /** Used by the settings page, which already holds fresh settings. */
  replace(response: Pick<SettingsResponse, 'settings' | 'features'>) {
    set({ status: 'ready', contentTypes: response.settings.contentTypes, features: response.features ?? {} });
  },
  reset() {
    set({ status: 'idle', contentTypes: {}, features: {} });
  },
  /** True when narration of this type can happen (configured and not switched off). */
  isNarrated(uid: string): boolean {
    const config = snapshot.contentTypes[uid];
    return Boolean(config && config.trigger !== 'off');
  },
};

/** Re-renders when the narrated types change; starts loading them if nobody has yet. */
export function useNarratedTypes(): Snapshot & { isNarrated: (uid: string) => boolean } {
  const current = React.useSyncExternalStore(narratedTypes.subscribe, narratedTypes.get, narratedTypes.get);
  React.useEffect(() => {
    if (current.status === 'idle') void narratedTypes.load();
  }, [current.status]);
  return { ...current, isNarrated: narratedTypes.isNarrated };
}

/**
 * A redux middleware (registered with app.addMiddlewares) that loads the narrated types as soon
 * as an admin token exists, and forgets them on logout. It only compares a string per action.
 */
export function narratedTypesMiddleware() {
  let lastToken: string | null = null;
  return (store: { getState: () => any }) => (next: (action: unknown) => unknown) => (action: unknown) => {
    const result = next(action);
    const token: string | null = store.getState()?.admin_app?.token ?? null;
    if (token !== lastToken) {
      const wasLoggedIn = lastToken !== null;
      lastToken = token;
      rememberAdminToken(token);
      if (!token) narratedTypes.reset();
      else if (!wasLoggedIn) void narratedTypes.load(true);
    }
    return result;
  };
}
