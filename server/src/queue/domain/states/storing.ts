/** Storing a result: a worker takes it, downloads it into the Media Library, and links the files to the row. */
import { CLEAR_LEASE, type Decide, type Decision } from './decision';
import { revisionsAfterStore } from './revisions';
import { NARRATION_STATUSES } from './types';

const storingFailed = (reason: string, code: string): Decision => ({
  kind: 'apply',
  from: ['storing'],
  patch: { ...CLEAR_LEASE, status: 'failed', lastError: reason, lastErrorCode: code, nextAttemptAt: null },
});

export const onStoreClaimed: Decide<'storeClaimed'> = (state, event) => {
  if (state.status !== 'storing') return { kind: 'ignore', reason: `nothing to store (${state.status})` };
  if (state.leaseOwner) return { kind: 'ignore', reason: 'another worker is storing this result' };
  const storeAttempts = state.storeAttempts ?? 0;
  if (storeAttempts >= event.maxAttempts) {
    // Every attempt was used up, some by workers that never reported back (a crash, a lost lease).
    return storingFailed(
      `${state.lastError ?? 'The narration could not be stored.'} Gave up after ${storeAttempts} download attempt(s).`,
      state.lastErrorCode ?? 'STORE_FAILED'
    );
  }
  return {
    kind: 'apply',
    from: ['storing'],
    patch: { leaseOwner: event.owner, leaseExpiresAt: new Date(event.now.getTime() + event.leaseMs), storeAttempts: storeAttempts + 1 },
  };
};

export const onStored: Decide<'stored'> = (state, event) => {
  const newerVersionWaiting = state.fingerprint !== state.submittedFingerprint;
  return {
    kind: 'apply',
    from: ['storing'],
    patch: {
      ...CLEAR_LEASE,
      status: newerVersionWaiting ? 'queued' : 'completed',
      narratedFingerprint: state.submittedFingerprint,
      freshWanted: false,
      freshParts: null,
      pendingResult: null,
      completedAt: event.now,
      ...(state.firstCompletedAt ? {} : { firstCompletedAt: event.now }),
      lastError: null,
      lastErrorCode: null,
      // Linked in the write that completes the row: no reader ever sees it completed without
      // its files, and files whose write lost were never linked (the worker removes them).
      audio: event.files.audio,
      subtitles: event.files.subtitles,
      subtitlesVtt: event.files.subtitlesVtt,
      durationSeconds: event.durationSeconds ?? null,
      audioBytes: event.audioBytes ?? null,
      chapters: event.chapters?.length ? event.chapters : null,
      segments: event.segments ?? null,
      revisions: revisionsAfterStore(state, event.segments, event.now),
      // The files this write unlinks wait in `replacedFiles` until removed (file-links.ts).
      stores: (state.stores ?? 0) + 1,
      replacedFilesWaiting: true,
      ...(newerVersionWaiting ? { regenerate: true, attempts: 0, nextAttemptAt: event.now } : { nextAttemptAt: null }),
    },
  };
};

export const onStoreDeferred: Decide<'storeDeferred'> = (state, event) => {
  // The attempt was counted when it was claimed (storeClaimed).
  const storeAttempts = state.storeAttempts ?? 0;
  if (storeAttempts >= event.maxAttempts) {
    return storingFailed(`${event.reason} Gave up after ${storeAttempts} download attempt(s).`, event.code);
  }
  // The result stays persisted on the row: the next attempt downloads it again, for free.
  return {
    kind: 'apply',
    from: ['storing'],
    patch: { ...CLEAR_LEASE, lastError: event.reason, lastErrorCode: event.code, nextAttemptAt: event.retryAt },
  };
};

export const onStoreFailed: Decide<'storeFailed'> = (_state, event) => storingFailed(event.reason, event.code);

export const onStoreAbandoned: Decide<'storeAbandoned'> = (state, event) => {
  // Taken up without waiting for the lease to run out; our own shutdown is no failure of the media
  // host, so the attempt counted at the claim is given back.
  return {
    kind: 'apply',
    from: ['storing'],
    patch: { ...CLEAR_LEASE, storeAttempts: Math.max(0, (state.storeAttempts ?? 0) - 1), nextAttemptAt: event.now },
  };
};

export const onReplacedFilesRemoved: Decide<'replacedFilesRemoved'> = (state) => {
  if (!state.replacedFilesWaiting) return { kind: 'ignore', reason: 'no replaced files wait' };
  // Whatever the status now: files are replaced only by a store, which the guard's `stores` sees.
  return { kind: 'apply', from: [...NARRATION_STATUSES], patch: { replacedFilesWaiting: false } };
};
