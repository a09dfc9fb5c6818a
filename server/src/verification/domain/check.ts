/**
 * A check's life, as pure decisions: what a refused or failed submission, a status poll and a
 * completed transcript make of a check row. The verifier applies each patch under the row's
 * lease; the speech-to-text poll rules (planFromStatus, planFromError) are speech to text's own.
 *
 * Pure: no Strapi, no I/O.
 */
import type { VerificationStatus } from '../../../../shared/contracts/verification';
import type { Comparison } from './compare';

/** A check row's states: `pending` until the audio is accepted, `transcribing` while the service works. */
export const CHECK_STATUSES = ['pending', 'transcribing', 'verified', 'mismatch', 'failed'] as const;
export type CheckStatus = (typeof CHECK_STATUSES)[number];
export const OPEN_CHECK_STATUSES: readonly CheckStatus[] = ['pending', 'transcribing'];

/** What a check stored of its comparison: its times are within the checked audio (a part's own start is 0). */
export type CheckResult = Omit<Comparison, 'wordAccuracy'>;

export interface CheckRow {
  id: number;
  narrationId: number;
  articleId: string;
  /** Which audio was checked: the article's stored file, or a part's frames (see audioKeyOf). */
  audioKey: string;
  partKey: string | null;
  language: string | null;
  text: string;
  status: CheckStatus;
  jobId: string | null;
  attempts: number;
  nextAttemptAt: string | null;
  leaseOwner: string | null;
  leaseExpiresAt: string | null;
  submittedAt: string | null;
  completedAt: string | null;
  wordAccuracy: number | null;
  result: CheckResult | null;
  lastError: string | null;
  lastErrorCode: string | null;
  regenerated: boolean;
  /** Its audio was replaced by a later store: kept for the month's counts, no longer the narration's check. */
  replaced: boolean;
}

/** What the admin's views read of a check: never the text sent. */
export const CHECK_VIEW_COLUMNS = [
  'id',
  'narrationId',
  'audioKey',
  'partKey',
  'status',
  'completedAt',
  'wordAccuracy',
  'result',
  'lastError',
  'regenerated',
] as const satisfies ReadonlyArray<keyof CheckRow>;
export type CheckViewRow = Pick<CheckRow, (typeof CHECK_VIEW_COLUMNS)[number]>;

/** A failure of one step: retried later unless it cannot mend or the attempts are spent. */
export interface StepFailure {
  message: string;
  code: string;
  retryable: boolean;
  /** The service's Retry-After, when it gave one. */
  retryAfterMs?: number;
}

export type CheckPatch = Partial<
  Pick<
    CheckRow,
    | 'status'
    | 'jobId'
    | 'attempts'
    | 'nextAttemptAt'
    | 'submittedAt'
    | 'completedAt'
    | 'wordAccuracy'
    | 'result'
    | 'lastError'
    | 'lastErrorCode'
  >
>;

/** Exponential from 1 s, at most 5 min, never sooner than Retry-After (spec 7.5). */
export function retryDelayMs(attempt: number, retryAfterMs = 0): number {
  return Math.max(retryAfterMs, Math.min(5 * 60_000, 1000 * 2 ** Math.max(0, attempt - 1)));
}

/** A step that failed: another attempt later, or `failed` for good (bounded attempts). */
export function afterFailure(row: Pick<CheckRow, 'attempts'>, failure: StepFailure, now: Date, maxAttempts: number): CheckPatch {
  const attempts = row.attempts + 1;
  if (!failure.retryable || attempts >= maxAttempts) {
    return {
      status: 'failed',
      attempts,
      nextAttemptAt: null,
      completedAt: now.toISOString(),
      lastError: failure.message,
      lastErrorCode: failure.code,
    };
  }
  return {
    attempts,
    nextAttemptAt: new Date(now.getTime() + retryDelayMs(attempts, failure.retryAfterMs)).toISOString(),
    lastError: failure.message,
    lastErrorCode: failure.code,
  };
}

/** The service accepted the audio: its job is polled from `pollMs` on. */
export function afterSubmitted(jobId: string, now: Date, pollMs: number): CheckPatch {
  return {
    status: 'transcribing',
    jobId,
    submittedAt: now.toISOString(),
    nextAttemptAt: new Date(now.getTime() + pollMs).toISOString(),
    lastError: null,
    lastErrorCode: null,
  };
}

/** The job is still running: look again after `delayMs`. */
export function stillTranscribing(now: Date, delayMs: number): CheckPatch {
  return { nextAttemptAt: new Date(now.getTime() + delayMs).toISOString() };
}

/** The transcript compared: verified at or above the minimum word accuracy, a mismatch below it or when too far to align. */
export function afterComparison(comparison: Comparison, minWordAccuracy: number, now: Date): CheckPatch {
  const { wordAccuracy, ...result } = comparison;
  return {
    status: wordAccuracy !== null && wordAccuracy >= minWordAccuracy ? 'verified' : 'mismatch',
    wordAccuracy,
    result,
    nextAttemptAt: null,
    completedAt: now.toISOString(),
    lastError: null,
    lastErrorCode: null,
  };
}

/**
 * What a narration's checks say together: a mismatch first (something an editor must hear), then
 * a check still running, then one that failed; verified only when every check is.
 */
export function overallStatus(statuses: readonly CheckStatus[]): VerificationStatus {
  if (statuses.includes('mismatch')) return 'mismatch';
  if (statuses.some((status) => OPEN_CHECK_STATUSES.includes(status))) return 'pending';
  if (statuses.includes('failed')) return 'failed';
  return 'verified';
}
