import * as React from 'react';
import { useFetchClient } from '@strapi/strapi/admin';
import { createSpeechApi, type SpeechApi } from './client';
import { isAbort, toProblem, type ApiProblem } from './errors';

/** The plugin's API bound to the admin fetch client of the calling component. */
export function useSpeechApi(): SpeechApi {
  const client = useFetchClient();
  return React.useMemo(() => createSpeechApi(client), [client]);
}

export interface AsyncState<T> {
  data: T | undefined;
  error: ApiProblem | null;
  /** True until the first answer (or error); later reloads keep showing the previous data. */
  loading: boolean;
  reload: () => Promise<void>;
  setData: React.Dispatch<React.SetStateAction<T | undefined>>;
}

interface AsyncOptions<T> {
  /** Skip loading (e.g. until a prerequisite is known). */
  enabled?: boolean;
  /** Poll again after this many ms (computed from the latest data); null or 0 stops polling. */
  pollMs?: (data: T | undefined) => number | null;
}

/**
 * Loads data with one of the API functions, reloads when `deps` change, optionally polls.
 * Small on purpose: the plugin needs a handful of requests, not a cache library.
 */
export function useSpeechQuery<T>(load: (api: SpeechApi) => Promise<T>, deps: React.DependencyList, options: AsyncOptions<T> = {}): AsyncState<T> {
  const api = useSpeechApi();
  const { enabled = true, pollMs } = options;
  const [data, setData] = React.useState<T | undefined>(undefined);
  const [error, setError] = React.useState<ApiProblem | null>(null);
  const [loading, setLoading] = React.useState<boolean>(enabled);
  const loadRef = React.useRef(load);
  loadRef.current = load;
  const pollRef = React.useRef(pollMs);
  pollRef.current = pollMs;
  const generation = React.useRef(0);
  const mounted = React.useRef(true);
  const timer = React.useRef<ReturnType<typeof setTimeout> | null>(null);

  React.useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
      if (timer.current) clearTimeout(timer.current);
    };
  }, []);

  const run = React.useCallback(async () => {
    if (timer.current) clearTimeout(timer.current);
    const mine = ++generation.current;
    try {
      const value = await loadRef.current(api);
      if (!mounted.current || mine !== generation.current) return;
      setData(value);
      setError(null);
      setLoading(false);
      const next = pollRef.current?.(value);
      if (next && next > 0) timer.current = setTimeout(() => void run(), next);
    } catch (caught) {
      if (!mounted.current || mine !== generation.current || isAbort(caught)) return;
      setError(toProblem(caught));
      setLoading(false);
      // Keep polling through transient failures, more slowly.
      const next = pollRef.current?.(undefined);
      if (next && next > 0) timer.current = setTimeout(() => void run(), next * 2);
    }
  }, [api]);

  React.useEffect(() => {
    if (!enabled) return;
    setLoading(true);
    void run();
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [enabled, run, ...deps]);

  return { data, error, loading, reload: run, setData };
}
