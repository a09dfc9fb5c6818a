/** A segmented narration's own steps: cut into parts, waiting for them, joined. */
import { CLEAR_LEASE, type Decide } from './decision';

export const onPartsPlanned: Decide<'partsPlanned'> = (state, event) => {
  if (state.status !== 'submitting') return { kind: 'ignore', reason: `not being planned (${state.status})` };
  return {
    kind: 'apply',
    from: ['submitting'],
    patch: {
      ...CLEAR_LEASE,
      status: event.allReady ? 'storing' : 'awaiting_parts',
      narrationMode: 'segmented',
      submittedFingerprint: state.fingerprint,
      segmentPlan: event.plan,
      freshWanted: false,
      noAudioCheck: false,
      ...(event.fresh ? { segments: null } : {}),
      characters: event.characters,
      credits: event.credits,
      submittedAt: event.now,
      pendingResult: null,
      callbackDeadline: null,
      lastError: null,
      lastErrorCode: null,
      ...(event.allReady ? { storeAttempts: 0, nextAttemptAt: event.now } : { nextAttemptAt: null }),
    },
  };
};

export const onPartsReady: Decide<'partsReady'> = (state, event) => {
  if (state.status !== 'awaiting_parts') return { kind: 'ignore', reason: `not awaiting parts (${state.status})` };
  return { kind: 'apply', from: ['awaiting_parts'], patch: { status: 'storing', storeAttempts: 0, nextAttemptAt: event.now } };
};

export const onPartFailed: Decide<'partFailed'> = (state, event) => {
  if (state.status !== 'awaiting_parts') return { kind: 'ignore', reason: `not awaiting parts (${state.status})` };
  return {
    kind: 'apply',
    from: ['awaiting_parts'],
    patch: { status: 'failed', lastError: event.reason, lastErrorCode: event.code, nextAttemptAt: null },
  };
};

/** Planned again: the parts at hand are kept, the lost ones asked for again (a key the service has is re-delivered free). */
export const onPartsLost: Decide<'partsLost'> = (state, event) => {
  if (state.status !== 'storing') return { kind: 'ignore', reason: `not joining (${state.status})` };
  return {
    kind: 'apply',
    from: ['storing'],
    patch: {
      ...CLEAR_LEASE,
      status: 'queued',
      segments: event.segments,
      nextAttemptAt: event.now,
      lastError: event.reason,
      lastErrorCode: 'PART_LOST',
    },
  };
};
