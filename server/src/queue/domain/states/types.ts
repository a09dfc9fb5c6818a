/** The narration's states, the row fields the machine reads and writes, and its events (index.ts). */
import { NARRATION_STATUSES, type NarrationStatus } from '../../../../../shared/contracts/narrations';
import type { NarrationMode } from '../../../../../shared/contracts/settings';
import type { Chapter } from '../../../subtitles';
import type { Revision } from '../../../../../shared/contracts/narrations';
import type { PlannedPart, StoredPart } from './segment-map';

export { NARRATION_STATUSES, type NarrationStatus };

/** Where the service may be spending credits on this row now (an article awaiting parts is not: its parts are). */
export const IN_FLIGHT_STATUSES: readonly NarrationStatus[] = ['submitting', 'awaiting_callback'];

export type { NarrationMode };

export interface ResultUrls {
  audioFile: string;
  srtFile: string;
}

export interface NarrationState {
  status: NarrationStatus;
  fingerprint: string | null;
  submittedFingerprint: string | null;
  narratedFingerprint: string | null;
  regenerate: boolean;
  /** Kept while a safety re-ask goes with regenerate false, so the old audio coming back is recognised, not accepted. */
  freshWanted?: boolean | null;
  /** A callback without files may be a replay (its signature covers no time): it is checked, free, first (callback.ts). */
  noAudioCheck?: boolean | null;
  /** The version whose empty result had its one paid retry, so replayed empty callbacks can never buy more. */
  paidRetryOf?: string | null;
  attempts: number;
  submissions: number;
  /** Counted when a download starts. */
  storeAttempts?: number;
  seenResults: ResultUrls[] | null;
  leaseOwner?: string | null;
  /** The compare-and-set of `replacedFilesRemoved`. */
  stores?: number | null;
  replacedFilesWaiting?: boolean | null;
  lastError?: string | null;
  lastErrorCode?: string | null;
  /** When its first audio was stored: a podcast episode's date, which a correction keeps. */
  firstCompletedAt?: string | Date | null;
  /** What asked for the version in flight (the ledger's cause). */
  cause?: string | null;
  segments?: StoredPart[] | null;
  freshParts?: string[] | null;
  revisions?: StoredRevision[] | null;
}

/** A stored version as the row keeps it (revisions.ts). */
export interface StoredRevision extends Revision {
  /** Passages read anew (a span may join several neighbours); 0 when the plugin does not know them. */
  passages: number;
}

/** Counters that are only ever written by compare-and-set on the value they were computed from. */
export const COUNTER_FIELDS = ['attempts', 'submissions', 'storeAttempts', 'stores'] as const;
export type CounterField = (typeof COUNTER_FIELDS)[number];

/** Written in the same transaction as the patch. */
export interface MediaLinks {
  audio: number;
  subtitles: number;
  subtitlesVtt: number;
}

export interface NarrationPatch {
  status?: NarrationStatus;
  fingerprint?: string | null;
  submittedFingerprint?: string | null;
  narratedFingerprint?: string | null;
  regenerate?: boolean;
  freshWanted?: boolean;
  freshParts?: string[] | null;
  noAudioCheck?: boolean;
  paidRetryOf?: string | null;
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
  firstCompletedAt?: Date;
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
  narrationMode?: NarrationMode;
  segmentPlan?: PlannedPart[] | null;
  segments?: StoredPart[] | null;
  revisions?: StoredRevision[];
}

export type NarrationEvent =
  /** Publish/save (or "narrate now") found new content for this article. */
  | { type: 'contentChanged'; fingerprint: string; now: Date }
  /** The worker takes the narration for submission. */
  | { type: 'claimed'; owner: string; leaseMs: number; now: Date }
  /** Claimed to be cut into parts, found to be narrated whole while no request is free: back in the queue as it was. */
  | { type: 'claimReturned' }
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
  /** Over the month's credit budget: nothing is sent until `until`, or until the budget rises or an editor lets it through. */
  | { type: 'budgetHeld'; reason: string; until: Date }
  /** 402/401/403: the whole queue pauses; this narration goes back to the queue untouched. */
  | { type: 'submitPaused'; reason: string; code: string }
  /** 400/422: the service will not take this text as it is. */
  | { type: 'submitRejected'; reason: string; code: string; creditsMayBeLost?: boolean }
  /** A signed callback with both files; `graceMs`: how long an earlier result that comes during a check is held, as an empty one is. */
  | { type: 'callbackWithFiles'; urls: ResultUrls; graceMs?: number; now: Date }
  /** A signed callback with a null file: checked with the service first, then a failure resent with regenerate true. */
  | { type: 'callbackWithoutFiles'; maxAttempts: number; graceMs: number; now: Date }
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
      audioBytes?: number | null;
      chapters?: Chapter[] | null;
      segments?: StoredPart[] | null;
      now: Date;
    }
  /** `credits`: what the new parts cost, the only ones paid. */
  | {
      type: 'partsPlanned';
      owner: string;
      plan: PlannedPart[];
      allReady: boolean;
      characters: number;
      credits: number;
      /** A fresh take of every part (the editor asked to regenerate): the stored parts are not reused, so not counted as at hand. */
      fresh?: boolean;
      now: Date;
    }
  /** Every planned part's audio is at hand: join them. */
  | { type: 'partsReady'; now: Date }
  /** A part failed for good: so does the article, naming the part. */
  | { type: 'partFailed'; reason: string; code: string }
  /** A part's result could not be fetched any more while joining: the article is planned again (its lost parts asked for again). */
  | {
      type: 'partsLost';
      owner: string;
      reason: string;
      /** The stored audio's map without the parts that could not be read back from it: planned as new, not as at hand. */
      segments: StoredPart[] | null;
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
  /** A worker held the narration past its lease (crash): put it back without paying twice. */
  | { type: 'leaseExpired'; now: Date }
  | { type: 'cancelled' }
  /** The editor asks for a fresh generation even though nothing changed. */
  | { type: 'regenerateRequested'; now: Date }
  /** A fresh take of some parts of a stored segmented narration (`keys`), the others kept. */
  | { type: 'partsRegenerateRequested'; keys: string[]; now: Date };

/** Extra compare-and-set conditions: a write from a stale copy loses instead of overwriting another writer's. */
export interface TransitionGuard {
  /** `null`: nobody may hold it. A store's owner names its claim, so a store whose lease was claimed again can never write (store-step.ts). */
  leaseOwner?: string | null;
  /** The lease ran out before this time (recovery must not take a lease its holder just renewed). */
  leaseExpiredBefore?: Date;
  counters?: Partial<Record<CounterField, number>>;
}

export type TransitionResult =
  | { kind: 'apply'; from: NarrationStatus[]; patch: NarrationPatch; guard: TransitionGuard }
  | { kind: 'ignore'; reason: string };
