/**
 * The narration job's state machine: every state change of a narration row is one of these
 * transitions, so the rules of the spec's section 3.1 (as the client sees them) live in one place
 * and can be tested without a database.
 *
 * A transition is pure: given the row's current fields and an event it returns the patch to write
 * and the state it expects the row to be in. The repository applies the patch with a conditional
 * update on that expected state, so two instances (or two duplicate callbacks) racing for the same
 * row cannot both win.
 */
import type { Chapter } from '../../subtitles/chapters';

export const NARRATION_STATUSES = ['queued', 'submitting', 'awaiting_callback', 'storing', 'completed', 'failed', 'cancelled'] as const;
export type NarrationStatus = (typeof NARRATION_STATUSES)[number];

/** States in which the service may be spending our credits on this article right now. */
export const IN_FLIGHT_STATUSES: readonly NarrationStatus[] = ['submitting', 'awaiting_callback'];

export interface ResultUrls {
  audioFile: string;
  srtFile: string;
}

/** The fields of a narration row the state machine reads. */
export interface NarrationJobState {
  status: NarrationStatus;
  fingerprint: string | null;
  submittedFingerprint: string | null;
  narratedFingerprint: string | null;
  regenerate: boolean;
  /**
   * A new generation of the same text is wanted (the editor asked to regenerate). Kept while a
   * safety re-ask goes out with regenerate false, so the old audio coming back is recognised as
   * "the request never arrived" rather than accepted as the result.
   */
  freshWanted?: boolean | null;
  attempts: number;
  submissions: number;
  /** Download attempts of the pending result, counted when a download starts (transient failures are retried). */
  storeAttempts?: number;
  seenResults: ResultUrls[] | null;
  /** The instance that holds the row right now (submitting or storing), if any. */
  leaseOwner?: string | null;
  /** How many results were stored (the compare-and-set of `replacedFilesRemoved`). */
  stores?: number | null;
  /** Files a store replaced may still be in the Media Library (narration/file-links.ts). */
  replacedFilesWaiting?: boolean | null;
  lastError?: string | null;
  lastErrorCode?: string | null;
}

/** Counters that are only ever written by compare-and-set on the value they were computed from. */
export const COUNTER_FIELDS = ['attempts', 'submissions', 'storeAttempts', 'stores'] as const;
export type CounterField = (typeof COUNTER_FIELDS)[number];

/** Media Library file ids linked to the row; the repository writes them in the same transaction as the patch. */
export interface MediaLinks {
  audio: number;
  subtitles: number;
  subtitlesVtt: number;
}

export interface NarrationJobPatch {
  status?: NarrationStatus;
  fingerprint?: string | null;
  submittedFingerprint?: string | null;
  narratedFingerprint?: string | null;
  regenerate?: boolean;
  freshWanted?: boolean;
  attempts?: number;
  submissions?: number;
  storeAttempts?: number;
  stores?: number;
  replacedFilesWaiting?: boolean;
  nextAttemptAt?: Date | null;
  leaseOwner?: string | null;
  leaseExpiresAt?: Date | null;
  submittedAt?: Date | null;
  callbackDeadline?: Date | null;
  pendingResult?: (ResultUrls & { receivedAt: string }) | null;
  seenResults?: ResultUrls[];
  lastError?: string | null;
  lastErrorCode?: string | null;
  creditsMayBeLost?: boolean;
  completedAt?: Date | null;
  voiceId?: string;
  preprocessType?: string;
  characters?: number;
  credits?: number;
  title?: string;
  audio?: number;
  subtitles?: number;
  subtitlesVtt?: number;
  durationSeconds?: number | null;
  audioBytes?: number | null;
  chapters?: Chapter[] | null;
}

export type NarrationEvent =
  /** Publish/save (or "narrate now") found new content for this article. */
  | { type: 'contentChanged'; fingerprint: string; now: Date }
  /** The worker takes the job for submission. */
  | { type: 'claimed'; owner: string; leaseMs: number; now: Date }
  /** POST /process-text answered 202. */
  | { type: 'submitAccepted'; callbackTimeoutMs: number; now: Date }
  /** 409 ALREADY_PROCESSING: the service is still generating; its callback will come. */
  | { type: 'submitAlreadyProcessing'; callbackTimeoutMs: number; now: Date }
  /** 429, 5xx, network: try again later; `countsAsAttempt` false for rate limits. */
  | {
      type: 'submitDeferred';
      retryAt: Date;
      reason: string;
      code: string;
      countsAsAttempt: boolean;
      maxAttempts: number;
      /** The failed request may have reached the service and been charged (a timeout, a reset, a 5xx). */
      outcomeUnknown?: boolean;
    }
  /** 402/401/403: the whole queue pauses; this job goes back to the queue untouched. */
  | { type: 'submitPaused'; reason: string; code: string }
  /** 400/422: the service will not take this text as it is. */
  | { type: 'submitRejected'; reason: string; code: string; creditsMayBeLost?: boolean }
  /** A signed callback with both files. */
  | { type: 'callbackWithFiles'; urls: ResultUrls; now: Date }
  /** A signed callback with a null file: a failure, resent with regenerate true. */
  | { type: 'callbackWithoutFiles'; maxAttempts: number; now: Date }
  /** No callback within callbackTimeout: ask again with regenerate false (free re-delivery). */
  | { type: 'callbackTimedOut'; maxAttempts: number; now: Date }
  /** This instance takes a result to download; the attempt is counted now, so a download that never reports back still counts. */
  | { type: 'storeClaimed'; owner: string; leaseMs: number; maxAttempts: number; now: Date }
  /** The lease holder is still at work (a long download or upload): extend its lease. */
  | { type: 'leaseRenewed'; owner: string; leaseMs: number; now: Date }
  /** Both files are in the Media Library: link them and complete the row in one conditional write. */
  | {
      type: 'stored';
      owner: string;
      files: MediaLinks;
      durationSeconds?: number | null;
      /** The stored MP3's exact length. */
      audioBytes?: number | null;
      chapters?: Chapter[] | null;
      now: Date;
    }
  /** Storing failed for a passing reason (timeout, 5xx from the media host): try again later. */
  | { type: 'storeDeferred'; owner: string; retryAt: Date; reason: string; code: string; maxAttempts: number }
  /** Storing failed for good (download refused, bad content). */
  | { type: 'storeFailed'; owner: string; reason: string; code: string }
  /** The files the last store replaced are out of the Media Library (whoever removed them: the storing worker, or one after a restart). */
  | { type: 'replacedFilesRemoved' }
  /** This instance stops (shutdown) in the middle of a download: hand the row back at once. */
  | { type: 'storeAbandoned'; owner: string; now: Date }
  /** A worker held the job past its lease (crash): put it back without paying twice. */
  | { type: 'leaseExpired'; now: Date }
  | { type: 'cancelled' }
  /** The editor asks for a fresh generation even though nothing changed. */
  | { type: 'regenerateRequested'; now: Date };

/**
 * Extra conditions of the compare-and-set, besides the expected status. Each makes a write from a
 * stale copy of the row lose instead of overwriting what another writer did meanwhile.
 */
export interface TransitionGuard {
  /**
   * The row's lease must (still) belong to this owner; `null`: nobody may hold it. A worker whose
   * lease expired and was taken over can then never write to the row again.
   */
  leaseOwner?: string | null;
  /** The lease ran out before this time (recovery must not take a lease its holder just renewed). */
  leaseExpiredBefore?: Date;
  /** The counters still hold the values the patch's new ones were computed from. */
  counters?: Partial<Record<CounterField, number>>;
}

export type TransitionResult =
  | { kind: 'apply'; from: NarrationStatus[]; patch: NarrationJobPatch; guard: TransitionGuard }
  /** Nothing to do (an unchanged republish, a duplicate or replayed callback). */
  | { kind: 'ignore'; reason: string };

const CLEAR_LEASE = { leaseOwner: null, leaseExpiresAt: null } as const;

function sameUrls(a: ResultUrls, b: ResultUrls): boolean {
  return a.audioFile === b.audioFile && a.srtFile === b.srtFile;
}

export function hasSeenResult(state: Pick<NarrationJobState, 'seenResults'>, urls: ResultUrls): boolean {
  return (state.seenResults ?? []).some((seen) => sameUrls(seen, urls));
}

/** Keeps the last few result URL pairs: enough to recognise a replayed callback. */
const SEEN_RESULTS_KEPT = 20;

function afterFailedAttempt(
  state: NarrationJobState,
  maxAttempts: number,
  failure: { reason: string; code: string },
  retry: NarrationJobPatch
): Decision {
  if (state.attempts >= maxAttempts) {
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
  return {
    kind: 'apply',
    from: [state.status],
    patch: { ...CLEAR_LEASE, status: 'queued', lastError: failure.reason, lastErrorCode: failure.code, callbackDeadline: null, ...retry },
  };
}

type Decision = { kind: 'apply'; from: NarrationStatus[]; patch: NarrationJobPatch } | { kind: 'ignore'; reason: string };

/** Events only the holder of the row's lease may apply. */
type LeaseHolderEvent = Extract<NarrationEvent, { owner: string }>;
const LEASE_HOLDER_EVENTS: ReadonlySet<NarrationEvent['type']> = new Set<LeaseHolderEvent['type']>([
  'leaseRenewed',
  'stored',
  'storeDeferred',
  'storeFailed',
  'storeAbandoned',
]);

/**
 * The guard of a transition: the lease for the lease holder's events (a claim requires a free
 * lease), and a compare-and-set on every counter the patch writes, so a counter is never written
 * from a copy that another writer has moved on from.
 */
function guardFor(state: NarrationJobState, event: NarrationEvent, patch: NarrationJobPatch): TransitionGuard {
  const guard: TransitionGuard = {};
  if (event.type === 'storeClaimed') guard.leaseOwner = null;
  else if (event.type === 'leaseExpired') {
    guard.leaseExpiredBefore = event.now;
    if (state.leaseOwner) guard.leaseOwner = state.leaseOwner;
  } else if (LEASE_HOLDER_EVENTS.has(event.type)) guard.leaseOwner = (event as LeaseHolderEvent).owner;
  for (const field of COUNTER_FIELDS) {
    if (patch[field] === undefined) continue;
    (guard.counters ??= {})[field] = state[field] ?? 0;
  }
  // Only a store replaces files: with no store since they were read, none has been added meanwhile.
  if (event.type === 'replacedFilesRemoved') (guard.counters ??= {}).stores = state.stores ?? 0;
  return guard;
}

export function transition(state: NarrationJobState, event: NarrationEvent): TransitionResult {
  const decision = decide(state, event);
  if (decision.kind === 'ignore') return decision;
  return { ...decision, guard: guardFor(state, event, decision.patch) };
}

function decide(state: NarrationJobState, event: NarrationEvent): Decision {
  switch (event.type) {
    case 'contentChanged': {
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
      const generatedBefore = state.narratedFingerprint !== null || state.submissions > 0;
      return {
        kind: 'apply',
        from: [state.status],
        patch: {
          ...CLEAR_LEASE,
          status: 'queued',
          fingerprint: event.fingerprint,
          // First time: regenerate false. Changed content: regenerate true (the service would
          // otherwise re-deliver the old audio for this articleId).
          regenerate: generatedBefore,
          // New text: the fingerprints already tell an old result from the new one.
          freshWanted: false,
          attempts: 0,
          nextAttemptAt: event.now,
          lastError: null,
          lastErrorCode: null,
          creditsMayBeLost: false,
        },
      };
    }

    case 'regenerateRequested': {
      if (state.status === 'submitting' || state.status === 'awaiting_callback' || state.status === 'storing') {
        return { kind: 'ignore', reason: 'a narration is already under way for this article' };
      }
      const generatedBefore = state.submissions > 0 || state.narratedFingerprint !== null;
      return {
        kind: 'apply',
        from: [state.status],
        patch: {
          ...CLEAR_LEASE,
          status: 'queued',
          regenerate: generatedBefore,
          freshWanted: generatedBefore,
          attempts: 0,
          nextAttemptAt: event.now,
          lastError: null,
          lastErrorCode: null,
        },
      };
    }

    case 'claimed':
      if (state.status !== 'queued') return { kind: 'ignore', reason: `not queued (${state.status})` };
      return {
        kind: 'apply',
        from: ['queued'],
        patch: { status: 'submitting', leaseOwner: event.owner, leaseExpiresAt: new Date(event.now.getTime() + event.leaseMs) },
      };

    case 'submitAccepted':
    case 'submitAlreadyProcessing':
      return {
        kind: 'apply',
        from: ['submitting'],
        patch: {
          ...CLEAR_LEASE,
          status: 'awaiting_callback',
          submittedFingerprint: state.fingerprint,
          attempts: state.attempts + (event.type === 'submitAccepted' ? 1 : 0),
          submissions: state.submissions + (event.type === 'submitAccepted' ? 1 : 0),
          submittedAt: event.now,
          callbackDeadline: new Date(event.now.getTime() + event.callbackTimeoutMs),
          nextAttemptAt: null,
          lastError: null,
          lastErrorCode: null,
        },
      };

    case 'submitDeferred': {
      const attempts = state.attempts + (event.countsAsAttempt ? 1 : 0);
      // As after a crash mid-submission: if the lost request did start a generation, asking again
      // with regenerate true would pay for a second one. Regenerate false cannot charge: the service
      // answers 409 while it works, re-delivers the new result when done, or re-delivers the old one
      // if the request never arrived (then callbackWithFiles asks for the new version explicitly).
      const retry = event.outcomeUnknown
        ? { attempts, nextAttemptAt: event.retryAt, regenerate: false }
        : { attempts, nextAttemptAt: event.retryAt };
      return afterFailedAttempt({ ...state, attempts }, event.maxAttempts, event, retry);
    }

    case 'submitPaused':
      return {
        kind: 'apply',
        from: ['submitting'],
        patch: { ...CLEAR_LEASE, status: 'queued', lastError: event.reason, lastErrorCode: event.code },
      };

    case 'submitRejected':
      return {
        kind: 'apply',
        from: ['submitting'],
        patch: {
          ...CLEAR_LEASE,
          status: 'failed',
          lastError: event.reason,
          lastErrorCode: event.code,
          creditsMayBeLost: event.creditsMayBeLost ?? false,
          nextAttemptAt: null,
        },
      };

    case 'callbackWithFiles': {
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
    }

    case 'callbackWithoutFiles':
      if (state.status !== 'awaiting_callback') {
        return { kind: 'ignore', reason: `no callback awaited (${state.status})` };
      }
      return afterFailedAttempt(
        state,
        event.maxAttempts,
        { reason: 'The speech service produced no audio for this article.', code: 'NO_AUDIO' },
        { regenerate: true, nextAttemptAt: event.now }
      );

    case 'callbackTimedOut':
      return afterFailedAttempt(
        state,
        event.maxAttempts,
        { reason: 'No result arrived from the speech service in time; asking again.', code: 'CALLBACK_TIMEOUT' },
        // regenerate false: a finished result is re-delivered for free, or 409 if still working.
        { regenerate: false, nextAttemptAt: event.now }
      );

    case 'storeClaimed': {
      if (state.status !== 'storing') return { kind: 'ignore', reason: `nothing to store (${state.status})` };
      if (state.leaseOwner) return { kind: 'ignore', reason: 'another worker is storing this result' };
      const storeAttempts = state.storeAttempts ?? 0;
      if (storeAttempts >= event.maxAttempts) {
        // Every attempt was used up, some by workers that never reported back (a crash, a lost lease).
        return {
          kind: 'apply',
          from: ['storing'],
          patch: {
            ...CLEAR_LEASE,
            status: 'failed',
            lastError: `${state.lastError ?? 'The narration could not be stored.'} Gave up after ${storeAttempts} download attempt(s).`,
            lastErrorCode: state.lastErrorCode ?? 'STORE_FAILED',
            nextAttemptAt: null,
          },
        };
      }
      return {
        kind: 'apply',
        from: ['storing'],
        patch: { leaseOwner: event.owner, leaseExpiresAt: new Date(event.now.getTime() + event.leaseMs), storeAttempts: storeAttempts + 1 },
      };
    }

    case 'leaseRenewed':
      if (state.status !== 'storing' && state.status !== 'submitting') {
        return { kind: 'ignore', reason: `no lease to renew (${state.status})` };
      }
      return { kind: 'apply', from: [state.status], patch: { leaseExpiresAt: new Date(event.now.getTime() + event.leaseMs) } };

    case 'stored': {
      const newerVersionWaiting = state.fingerprint !== state.submittedFingerprint;
      return {
        kind: 'apply',
        from: ['storing'],
        patch: {
          ...CLEAR_LEASE,
          status: newerVersionWaiting ? 'queued' : 'completed',
          narratedFingerprint: state.submittedFingerprint,
          freshWanted: false,
          pendingResult: null,
          completedAt: event.now,
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
          // The files this write unlinks wait in `replacedFiles` until removed (file-links.ts).
          stores: (state.stores ?? 0) + 1,
          replacedFilesWaiting: true,
          ...(newerVersionWaiting ? { regenerate: true, attempts: 0, nextAttemptAt: event.now } : { nextAttemptAt: null }),
        },
      };
    }

    case 'storeDeferred': {
      // The attempt was counted when it was claimed (storeClaimed).
      const storeAttempts = state.storeAttempts ?? 0;
      if (storeAttempts >= event.maxAttempts) {
        return {
          kind: 'apply',
          from: ['storing'],
          patch: {
            ...CLEAR_LEASE,
            status: 'failed',
            lastError: `${event.reason} Gave up after ${storeAttempts} download attempt(s).`,
            lastErrorCode: event.code,
            nextAttemptAt: null,
          },
        };
      }
      // The result stays persisted on the row: the next attempt downloads it again, for free.
      return {
        kind: 'apply',
        from: ['storing'],
        patch: { ...CLEAR_LEASE, lastError: event.reason, lastErrorCode: event.code, nextAttemptAt: event.retryAt },
      };
    }

    case 'storeFailed':
      return {
        kind: 'apply',
        from: ['storing'],
        patch: { ...CLEAR_LEASE, status: 'failed', lastError: event.reason, lastErrorCode: event.code, nextAttemptAt: null },
      };

    case 'replacedFilesRemoved':
      if (!state.replacedFilesWaiting) return { kind: 'ignore', reason: 'no replaced files wait' };
      // Whatever the status now: files are replaced only by a store, which the guard's `stores` sees.
      return { kind: 'apply', from: [...NARRATION_STATUSES], patch: { replacedFilesWaiting: false } };

    case 'storeAbandoned':
      // Another instance (or this one after a restart) takes it up without waiting for the lease to
      // run out; a download stopped by our own shutdown is no failure of the media host, so the
      // attempt counted at the claim is given back.
      return {
        kind: 'apply',
        from: ['storing'],
        patch: { ...CLEAR_LEASE, storeAttempts: Math.max(0, (state.storeAttempts ?? 0) - 1), nextAttemptAt: event.now },
      };

    case 'leaseExpired':
      if (state.status === 'submitting') {
        // We cannot know whether the crashed submission reached the service. Asking again with
        // regenerate false never pays twice: the service answers 409 (still generating),
        // re-delivers a finished result for free, or re-delivers the old one (seen above).
        return {
          kind: 'apply',
          from: ['submitting'],
          patch: { ...CLEAR_LEASE, status: 'queued', regenerate: false, nextAttemptAt: event.now },
        };
      }
      if (state.status === 'storing') {
        return { kind: 'apply', from: ['storing'], patch: { ...CLEAR_LEASE, nextAttemptAt: event.now } };
      }
      return { kind: 'ignore', reason: `no lease to recover (${state.status})` };

    case 'cancelled':
      if (state.status === 'completed' || state.status === 'cancelled') {
        return { kind: 'ignore', reason: `nothing to cancel (${state.status})` };
      }
      return {
        kind: 'apply',
        from: [state.status],
        patch: { ...CLEAR_LEASE, status: 'cancelled', nextAttemptAt: null, callbackDeadline: null, pendingResult: null },
      };
  }
}
