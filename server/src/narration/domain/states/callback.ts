/** What the service's callback brings (or its absence): a result to store, a failure, or a retry. */
import { afterFailedAttempt, hasSeenResult, SEEN_RESULTS_KEPT, type Decide } from './decision';

export const onCallbackWithFiles: Decide<'callbackWithFiles'> = (state, event) => {
  if (state.status !== 'awaiting_callback') {
    return { kind: 'ignore', reason: `no callback awaited (${state.status})` };
  }
  if (hasSeenResult(state, event.urls)) {
    if (state.regenerate) {
      // We asked for a new generation: a result we already had is a replay of an old callback.
      return { kind: 'ignore', reason: 'replay of an earlier result' };
    }
    if (state.submittedFingerprint !== state.narratedFingerprint || state.freshWanted) {
      // We asked without regenerate (lost callback, lost answer or crash recovery) and got the
      // old audio back: the new version (or the fresh take the editor asked for) was never
      // generated. Ask for it explicitly.
      return {
        kind: 'apply',
        from: ['awaiting_callback'],
        patch: { status: 'queued', regenerate: true, callbackDeadline: null, nextAttemptAt: event.now },
      };
    }
  }
  const seen = [...(state.seenResults ?? []), event.urls].slice(-SEEN_RESULTS_KEPT);
  return {
    kind: 'apply',
    from: ['awaiting_callback'],
    patch: {
      status: 'storing',
      pendingResult: { ...event.urls, receivedAt: event.now.toISOString() },
      seenResults: seen,
      storeAttempts: 0,
      callbackDeadline: null,
      nextAttemptAt: event.now,
    },
  };
};

export const onCallbackWithoutFiles: Decide<'callbackWithoutFiles'> = (state, event) => {
  if (state.status !== 'awaiting_callback') {
    return { kind: 'ignore', reason: `no callback awaited (${state.status})` };
  }
  return afterFailedAttempt(
    state,
    event.maxAttempts,
    { reason: 'The speech service produced no audio for this article.', code: 'NO_AUDIO' },
    { regenerate: true, nextAttemptAt: event.now }
  );
};

export const onCallbackTimedOut: Decide<'callbackTimedOut'> = (state, event) =>
  afterFailedAttempt(
    state,
    event.maxAttempts,
    { reason: 'No result arrived from the speech service in time; asking again.', code: 'CALLBACK_TIMEOUT' },
    // regenerate false: a finished result is re-delivered for free, or 409 if still working.
    { regenerate: false, nextAttemptAt: event.now }
  );
