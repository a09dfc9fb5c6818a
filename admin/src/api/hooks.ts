import * as React from 'react';
import { useAuth, useNotification } from '@strapi/strapi/admin';
import { toProblem } from './errors';
import { rowsOfDocument, statusesPollMs, visibleDocuments } from './listStatus';
import { isNarratedType } from './narratedTypes';
import { speechApi, useGetSpeechNarratedTypesQuery } from './speechApi';

/** Which types are narrated (loaded once per login, see index.ts); 'loading' until the first answer. */
export function useNarratedTypes() {
  const { data, isError, isLoading, isUninitialized } = useGetSpeechNarratedTypesQuery();
  const status = data ? 'ready' : isError ? 'error' : isLoading || isUninitialized ? 'loading' : 'error';
  const contentTypes = data?.contentTypes;
  const isNarrated = React.useCallback((uid: string) => isNarratedType(contentTypes, uid), [contentTypes]);
  return { status, isNarrated } as const;
}

/**
 * The narration rows of one document in the list view (undefined while loading). Every cell of
 * the page subscribes to the same statuses query (see listStatus.ts): one request per page, polled
 * while a narration of the page is in progress.
 */
export function useListStatus(contentType: string, documentId: string) {
  const documents = visibleDocuments(contentType);
  React.useEffect(() => documents.register(documentId), [documents, documentId]);
  const documentIds = React.useSyncExternalStore(documents.subscribe, documents.getDocumentIds, documents.getDocumentIds);
  const listed = documentIds.includes(documentId);
  const args = { contentType, documentIds };
  const { data, currentData, isError } = speechApi.endpoints.getSpeechListStatuses.useQueryState(args, { skip: !listed });
  // Fresh on every visit of the page; polled while one of its narrations is in progress.
  speechApi.endpoints.getSpeechListStatuses.useQuerySubscription(args, {
    skip: !listed,
    refetchOnMountOrArgChange: true,
    pollingInterval: statusesPollMs(currentData, isError),
  });
  return { rows: rowsOfDocument(data, isError, documentId), queue: data?.queue ?? null, failed: isError };
}

export type SampleState = 'idle' | 'loading' | 'playing' | 'error';

/**
 * Plays one short sample at a time (a voice preview, a lexicon rule's spoken form): fetches it
 * with the admin token, replaces the one playing, frees the audio when done or unmounted, and
 * tells the editor when it fails. `key` says which sample plays; `name` is the caller's, for
 * the admin's auth context.
 */
export function useSamplePlayer(name: string) {
  const token = useAuth(name, (auth) => auth.token);
  const { toggleNotification } = useNotification();
  const [state, setState] = React.useState<{ key: string | null; state: SampleState }>({ key: null, state: 'idle' });
  const audio = React.useRef<HTMLAudioElement | null>(null);
  const stop = () => {
    audio.current?.pause();
    if (audio.current?.src.startsWith('blob:')) URL.revokeObjectURL(audio.current.src);
  };
  React.useEffect(() => stop, []);

  const play = async (key: string, fetchSample: (token: string | null) => Promise<Blob>) => {
    setState({ key, state: 'loading' });
    try {
      const blob = await fetchSample(token);
      stop();
      const sample = new Audio(URL.createObjectURL(blob));
      audio.current = sample;
      sample.addEventListener('ended', () => setState({ key, state: 'idle' }));
      await sample.play();
      setState({ key, state: 'playing' });
    } catch (caught) {
      setState({ key, state: 'error' });
      toggleNotification({ type: 'danger', message: toProblem(caught).message });
    }
  };
  const stateOf = (key: string): SampleState => (state.key === key ? state.state : 'idle');
  return { play, stateOf };
}
