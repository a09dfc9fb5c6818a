/** What the service's callback brings (or its absence): a result to store, a failure, or a retry. */
import { afterFailedAttempt, failedFor, hasSeenResult, SEEN_RESULTS_KEPT, type Decide, type Decision } from './decision';
import type { NarrationState } from './types';

export const onCallbackWithFiles: Decide<'callbackWithFiles'> = (state, event) => {
  if (state.status !== 'awaiting_callback') {
    return { kind: 'ignore', reason: `no callback awaited (${state.status})` };
  }
  if (hasSeenResult(state, event.urls)) {
    if (state.noAudioCheck) {
      // During a free check an earlier result proves nothing (a replay may come first): it is held as an empty one.
      if (holdsEmptyResult(state) || event.graceMs === undefined) return { kind: 'ignore', reason: 'an earlier result during a check' };
      return { kind: 'apply', from: ['awaiting_callback'], patch: noAudioHold(event.now, event.graceMs) };
    }
    if (state.regenerate) {
      // We asked for a new generation: a result we already had is a replay of an old callback.
      return { kind: 'ignore', reason: 'replay of an earlier result' };
    }
    if (state.submittedFingerprint !== state.narratedFingerprint || state.freshWanted) {
      // We asked without regenerate and got the old audio back: the new version (or the fresh take) was
      // never generated. Ask for it explicitly.
      return {
        kind: 'apply',
        from: ['awaiting_callback'],
        patch: { status: 'queued', regenerate: true, noAudioCheck: false, callbackDeadline: null, nextAttemptAt: event.now },
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
      noAudioCheck: false,
      ...(holdsEmptyResult(state) ? { lastError: null, lastErrorCode: null } : {}),
      callbackDeadline: null,
      nextAttemptAt: event.now,
    },
  };
};

/**
 * A callback without files: its signature covers no time (spec 5.4, 6), so a replay could fail a later
 * request. It is checked by asking again, free; an empty answer is held for `noAudioGraceMs` (audio
 * arriving meanwhile wins), and only a hold that runs out is resent with regenerate true (spec 6).
 */
export const onCallbackWithoutFiles: Decide<'callbackWithoutFiles'> = (state, event) => {
  if (state.status !== 'awaiting_callback') {
    return { kind: 'ignore', reason: `no callback awaited (${state.status})` };
  }
  if (!state.noAudioCheck) {
    return {
      kind: 'apply',
      from: ['awaiting_callback'],
      patch: { status: 'queued', regenerate: false, noAudioCheck: true, callbackDeadline: null, nextAttemptAt: event.now },
    };
  }
  if (holdsEmptyResult(state)) return { kind: 'ignore', reason: 'an empty result is already held' };
  return { kind: 'apply', from: ['awaiting_callback'], patch: noAudioHold(event.now, event.graceMs) };
};

const NO_AUDIO = { reason: 'The speech service produced no audio for this article.', code: 'NO_AUDIO' };
const NO_AUDIO_AFTER_RETRY = { ...NO_AUDIO, reason: 'The speech service produced no audio for this version, also when asked again.' };

/** An empty result held for `graceMs`, in which audio delivered late still wins. */
const noAudioHold = (now: Date, graceMs: number) => ({
  lastError: NO_AUDIO.reason,
  lastErrorCode: NO_AUDIO.code,
  callbackDeadline: new Date(now.getTime() + graceMs),
});

/** The check was answered without audio, and a late delivery of the audio is still awaited. */
export function holdsEmptyResult(state: Pick<NarrationState, 'status' | 'noAudioCheck' | 'lastErrorCode'>): boolean {
  return state.status === 'awaiting_callback' && Boolean(state.noAudioCheck) && state.lastErrorCode === NO_AUDIO.code;
}

function endingCheck(decision: Decision): Decision {
  return decision.kind === 'apply' ? { ...decision, patch: { ...decision.patch, noAudioCheck: false } } : decision;
}

export const onCallbackTimedOut: Decide<'callbackTimedOut'> = (state, event) =>
  holdsEmptyResult(state)
    ? // No audio came while the empty result was held: the service has none (spec 6). Resent with
      // regenerate true once per submitted version; empty again, the version fails.
      endingCheck(
        state.paidRetryOf != null && state.paidRetryOf === state.submittedFingerprint
          ? failedFor(state, NO_AUDIO_AFTER_RETRY)
          : afterFailedAttempt(state, event.maxAttempts, NO_AUDIO, {
              regenerate: true,
              paidRetryOf: state.submittedFingerprint,
              nextAttemptAt: event.now,
            })
      )
    : // A check that timed out too is asked again as any lost callback is: as an attempt, so that a
      // callback that never comes ends in failure.
      endingCheck(
        afterFailedAttempt(
          state,
          event.maxAttempts,
          { reason: 'No result arrived from the speech service in time; asking again.', code: 'CALLBACK_TIMEOUT' },
          // regenerate false: a finished result is re-delivered for free, or 409 if still working.
          { regenerate: false, nextAttemptAt: event.now }
        )
      );
