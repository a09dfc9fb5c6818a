/** What publishing and editors ask of a row: narrate new content, regenerate, cancel. */
import { CLEAR_LEASE, type Decide } from './decision';
import type { NarrationState } from './types';

/** Queued for a submission now, as an editor or a publish asks: a fresh count of attempts, no error left, no check of an older request. */
const queuedAfresh = (now: Date) =>
  ({
    ...CLEAR_LEASE,
    status: 'queued',
    attempts: 0,
    nextAttemptAt: now,
    lastError: null,
    lastErrorCode: null,
    noAudioCheck: false,
    paidRetryOf: null,
  }) as const;

/** Asked before (or stored): new text then goes with regenerate true, or the service would re-deliver the old audio. */
export const generatedBefore = (state: Pick<NarrationState, 'submissions' | 'narratedFingerprint'>): boolean =>
  state.narratedFingerprint !== null || state.submissions > 0;

export const onContentChanged: Decide<'contentChanged'> = (state, event) => {
  if (event.fingerprint === state.fingerprint && state.status !== 'cancelled' && state.status !== 'failed') {
    return { kind: 'ignore', reason: 'unchanged: this text, voice and mode are already narrated or on their way' };
  }
  if (event.fingerprint === state.narratedFingerprint && state.status === 'completed') {
    return { kind: 'ignore', reason: 'unchanged: this version is already narrated' };
  }
  // While the service generates an older version we cannot submit (409); remember the new
  // version and submit it when the pending result is in.
  if (state.status === 'submitting' || state.status === 'awaiting_callback' || state.status === 'storing') {
    return { kind: 'apply', from: [state.status], patch: { fingerprint: event.fingerprint } };
  }
  return {
    kind: 'apply',
    from: [state.status],
    patch: {
      ...queuedAfresh(event.now),
      fingerprint: event.fingerprint,
      // First time: regenerate false. Changed content: regenerate true (the service would
      // otherwise re-deliver the old audio for this articleId).
      regenerate: generatedBefore(state),
      // New text: the fingerprints already tell an old result from the new one.
      freshWanted: false,
      creditsMayBeLost: false,
    },
  };
};

export const onRegenerateRequested: Decide<'regenerateRequested'> = (state, event) => {
  const underWay = ['submitting', 'awaiting_callback', 'awaiting_parts', 'storing'] as const;
  if ((underWay as readonly string[]).includes(state.status)) {
    return { kind: 'ignore', reason: 'a narration is already under way for this article' };
  }
  const fresh = generatedBefore(state);
  return {
    kind: 'apply',
    from: [state.status],
    patch: { ...queuedAfresh(event.now), regenerate: fresh, freshWanted: fresh, freshParts: null },
  };
};

/** Only stored audio has parts to take again; planning (plan-step.ts) asks for those afresh and reads the others back. */
export const onPartsRegenerateRequested: Decide<'partsRegenerateRequested'> = (state, event) => {
  if (state.status !== 'completed') return { kind: 'ignore', reason: `no stored narration to mend (${state.status})` };
  if (event.keys.length === 0) return { kind: 'ignore', reason: 'no part to take again' };
  return {
    kind: 'apply',
    from: ['completed'],
    patch: { ...queuedAfresh(event.now), regenerate: true, freshWanted: false, freshParts: [...event.keys] },
  };
};

export const onCancelled: Decide<'cancelled'> = (state) => {
  if (state.status === 'completed' || state.status === 'cancelled') {
    return { kind: 'ignore', reason: `nothing to cancel (${state.status})` };
  }
  return {
    kind: 'apply',
    from: [state.status],
    patch: { ...CLEAR_LEASE, status: 'cancelled', nextAttemptAt: null, callbackDeadline: null, pendingResult: null, noAudioCheck: false },
  };
};
