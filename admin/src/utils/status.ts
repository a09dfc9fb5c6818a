import type { QueueState } from '../../../shared/contracts/common';
import type { NarrationStatus, NarrationView } from '../../../shared/contracts/narrations';
import { BUDGET_REACHED } from '../../../shared/contracts/usage';

/**
 * How a narration is shown to editors. Pure, so the mapping is unit-tested without a browser.
 */

export type BadgeKind = 'none' | 'queued' | 'budget' | 'paused' | 'generating' | 'ready' | 'mismatch' | 'failed' | 'cancelled';
export type BadgeVariant = 'neutral' | 'secondary' | 'warning' | 'primary' | 'success' | 'danger';

export const IN_PROGRESS: ReadonlySet<NarrationStatus> = new Set<NarrationStatus>([
  'queued',
  'submitting',
  'awaiting_callback',
  'awaiting_parts',
  'storing',
]);

export const BADGE_VARIANT: Record<BadgeKind, BadgeVariant> = {
  none: 'neutral',
  queued: 'secondary',
  budget: 'warning',
  paused: 'warning',
  generating: 'primary',
  ready: 'success',
  mismatch: 'warning',
  failed: 'danger',
  cancelled: 'neutral',
};

export const BADGE_LABEL: Record<BadgeKind, string> = {
  none: 'Not narrated',
  queued: 'Queued',
  budget: 'Monthly budget reached',
  paused: 'Paused for credits',
  generating: 'Generating',
  ready: 'Ready',
  mismatch: 'Ready, check audio',
  failed: 'Failed',
  cancelled: 'Cancelled',
};

export function isCreditsPause(queue: QueueState | null | undefined): boolean {
  return Boolean(queue?.paused && queue.pauseCode === 'INSUFFICIENT_CREDITS');
}

/** A narration waiting for the monthly budget (queued, or a segmented one whose next parts wait). */
export function isHeldByBudget(row: Pick<NarrationView, 'status'> & Partial<Pick<NarrationView, 'lastErrorCode'>>): boolean {
  return (row.status === 'queued' || row.status === 'awaiting_parts') && row.lastErrorCode === BUDGET_REACHED;
}

export function badgeKind(
  row: (Pick<NarrationView, 'status'> & Partial<Pick<NarrationView, 'lastErrorCode' | 'verification'>>) | null | undefined,
  queue?: QueueState | null
): BadgeKind {
  if (!row) return 'none';
  if (isHeldByBudget(row)) return 'budget';
  switch (row.status) {
    case 'queued':
    case 'submitting':
      return isCreditsPause(queue) ? 'paused' : 'queued';
    case 'awaiting_callback':
    case 'awaiting_parts':
    case 'storing':
      return 'generating';
    case 'completed':
      // Ready and public, but its check heard something else than the text sent.
      return row.verification?.status === 'mismatch' ? 'mismatch' : 'ready';
    case 'failed':
      return 'failed';
    case 'cancelled':
      return 'cancelled';
    default:
      return 'none';
  }
}

export function isInProgress(row: Pick<NarrationView, 'status'> | null | undefined): boolean {
  return Boolean(row && IN_PROGRESS.has(row.status));
}

/**
 * The row for one document in the current locale. A document of a non-localized type has one
 * row with locale null; a localized one has a row per locale.
 */
export function rowForLocale<T extends Pick<NarrationView, 'locale'>>(rows: T[], locale: string | null | undefined): T | null {
  if (!rows.length) return null;
  if (locale) return rows.find((row) => row.locale === locale) ?? rows.find((row) => row.locale === null) ?? null;
  return rows.find((row) => row.locale === null) ?? rows[0] ?? null;
}

/** Error codes the panel explains in the editor's language; anything else shows the server's text. */
export const KNOWN_ERROR_CODES = [
  'NO_AUDIO',
  'CALLBACK_TIMEOUT',
  'NOT_PUBLISHED',
  'EMPTY_TEXT',
  'INSUFFICIENT_CREDITS',
  'AUTH_FAILED',
  'UNAUTHORIZED',
  'FORBIDDEN',
  'INVALID_VOICE_ID',
  'NOT_FOUND',
  'VALIDATION_ERROR',
  'INVALID_REQUEST',
  'PROCESSING_ERROR',
  'REFUND_FAILED',
  'RATE_LIMIT_EXCEEDED',
  'CONCURRENT_REQUEST',
  'ALREADY_PROCESSING',
  'PAYLOAD_TOO_LARGE',
  'INTERNAL_ERROR',
  'SERVICE_UNAVAILABLE',
  // Segmented narration: a text over the service's limit, a part's audio lost before joining.
  'TEXT_TOO_LONG',
  'PART_LOST',
  // The site's monthly credit budget: the narration waits for next month or a let-through.
  'BUDGET_REACHED',
] as const;

export function knownErrorCode(code: string | null | undefined): (typeof KNOWN_ERROR_CODES)[number] | null {
  return code && (KNOWN_ERROR_CODES as readonly string[]).includes(code) ? (code as (typeof KNOWN_ERROR_CODES)[number]) : null;
}
