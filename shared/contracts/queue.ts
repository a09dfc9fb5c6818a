/**
 * The queue page (server/src/queue-page): the whole queue's counts, what waits, what failed, and the
 * operator's actions on them. Plain types and constants, imported by the server and the admin alike.
 */
import type { QueueState } from './common';
import type { NarrationStatus } from './narrations';

/**
 * How the page counts narrations: `awaitingService` is a submitted article (or its parts) the service
 * is generating; `heldByBudget` and `paused` are queued narrations that wait on the month's budget or on
 * a paused queue (credits, API key) rather than on their turn.
 */
export const QUEUE_PAGE_STATUSES = ['queued', 'submitting', 'awaitingService', 'storing', 'failed', 'heldByBudget', 'paused'] as const;
export type QueuePageStatus = (typeof QUEUE_PAGE_STATUSES)[number];
export type QueueCounts = Record<QueuePageStatus, number>;

/** Failures and waiting narrations are listed this many at a time. */
export const QUEUE_PAGE_SIZE = { default: 20, max: 100 } as const;
/** At most this many narrations are retried or cancelled in one request. */
export const QUEUE_ACTION_MAX = 500;

/** One narration as the queue page lists it. */
export interface QueueEntry {
  articleId: string;
  contentType: string;
  documentId: string;
  locale: string | null;
  title: string | null;
  status: NarrationStatus;
  /** Held by the month's budget (queued, or its next parts queued, BUDGET_REACHED). */
  heldByBudget: boolean;
  /** Queued: when it may go (its retry time); failed: when it last changed. */
  since: string | null;
  attempts: number;
  credits: number | null;
  lastError: string | null;
  lastErrorCode: string | null;
}

/** GET /speech/queue?watch=articleId,…: the page's figures, refreshed while it is open. */
export interface QueueSummaryRequest {
  query: { watch?: string };
}
export interface QueueSummaryResponse {
  counts: QueueCounts;
  /** The same figures by type and locale (a type without locales: locale null). */
  groups: Array<{ contentType: string; locale: string | null; counts: QueueCounts }>;
  /** The narration that has waited longest for its turn. */
  oldestWaiting: QueueEntry | null;
  inFlight: { count: number; cap: number };
  queue: QueueState;
  /** Failures by error code (null: no code), most first. */
  failureReasons: Array<{ code: string | null; count: number }>;
  /** Narrations of `watch` the caller may read, as they are now: the page says when one turns ready or failed. */
  watched: Array<Pick<QueueEntry, 'articleId' | 'title' | 'status' | 'lastErrorCode'>>;
  /** Only for a role whose read permission has conditions beyond locales: the figures count its first rows only. */
  partial: boolean;
}

/** What the lists filter on. */
export interface QueueFilter {
  contentType?: string;
  locale?: string;
  /** An error code; `none` for failures without one. */
  reason?: string;
}

/** GET /speech/queue/entries?list=failed|waiting&contentType&locale&reason&page&pageSize */
export interface QueueEntriesRequest {
  query: QueueFilter & { list: 'failed' | 'waiting'; page?: string; pageSize?: string };
}
export interface QueueEntriesResponse {
  data: QueueEntry[];
  pagination: { page: number; pageSize: number; total: number };
}

/** The failures an action takes: those named, or all that match a filter. */
export type QueueSelection = { articleIds: string[] } | { all: true; filter?: QueueFilter };

/** POST /speech/queue/retry/estimate: what retrying would send and cost, before anything is sent. */
export interface QueueRetryEstimateRequest {
  body: QueueSelection;
}
export interface QueueRetryEstimateResponse {
  /** Failed narrations the caller may narrate among the selection. */
  count: number;
  /** What they cost as last recorded (the service charges by the text it is sent). */
  credits: number;
  /** The month's budget left (null: no budget); over it, retried narrations wait for it as any other. */
  budgetRemaining: number | null;
  /** The account's balance as the service last told it. */
  creditsRemaining: number | null;
  /** Narrations of the selection the caller may not narrate, or that are no longer failed. */
  refused: number;
}

/** POST /speech/queue/retry: queues the selected failures again (the budget holds them as any other). */
export interface QueueRetryRequest {
  body: QueueSelection;
}
export interface QueueRetryResponse {
  retried: number;
  /** Failures not queued again, with why (no longer published, no longer narrated…). */
  skipped: Array<{ articleId: string; reason: string }>;
  refused: number;
  /** Failures matching the filter beyond the QUEUE_ACTION_MAX taken: retry again for them. */
  left: number;
}

/** POST /speech/queue/cancel: cancels queued narrations (nothing under way at the service is touched). */
export interface QueueCancelRequest {
  body: { articleIds: string[] };
}
export interface QueueCancelResponse {
  cancelled: number;
  refused: number;
}
