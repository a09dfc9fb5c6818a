/** What each event decides for a row (the per-event modules), and the pieces their decisions share. */
import type { NarrationEvent, NarrationPatch, NarrationState, NarrationStatus, ResultUrls } from './types';

/** A transition before its guard (guard.ts adds the compare-and-set conditions). */
export type Decision = { kind: 'apply'; from: NarrationStatus[]; patch: NarrationPatch } | { kind: 'ignore'; reason: string };

export type EventMap = { [E in NarrationEvent as E['type']]: E };
export type EventOf<T extends NarrationEvent['type']> = EventMap[T];

export type Decide<T extends NarrationEvent['type']> = (state: NarrationState, event: EventOf<T>) => Decision;

export const CLEAR_LEASE = { leaseOwner: null, leaseExpiresAt: null } as const;

function sameUrls(a: ResultUrls, b: ResultUrls): boolean {
  return a.audioFile === b.audioFile && a.srtFile === b.srtFile;
}

export function hasSeenResult(state: Pick<NarrationState, 'seenResults'>, urls: ResultUrls): boolean {
  return (state.seenResults ?? []).some((seen) => sameUrls(seen, urls));
}

/** Keeps the last few result URL pairs: enough to recognise a replayed callback. */
export const SEEN_RESULTS_KEPT = 20;

/** Failed for good, after the attempts the row made. */
export function failedFor(state: NarrationState, failure: { reason: string; code: string }): Decision {
  return {
    kind: 'apply',
    from: [state.status],
    patch: {
      ...CLEAR_LEASE,
      status: 'failed',
      lastError: `${failure.reason} Gave up after ${state.attempts} attempt(s).`,
      lastErrorCode: failure.code,
      nextAttemptAt: null,
      callbackDeadline: null,
    },
  };
}

export function afterFailedAttempt(
  state: NarrationState,
  maxAttempts: number,
  failure: { reason: string; code: string },
  retry: NarrationPatch
): Decision {
  if (state.attempts >= maxAttempts) return failedFor(state, failure);
  return {
    kind: 'apply',
    from: [state.status],
    patch: { ...CLEAR_LEASE, status: 'queued', lastError: failure.reason, lastErrorCode: failure.code, callbackDeadline: null, ...retry },
  };
}
