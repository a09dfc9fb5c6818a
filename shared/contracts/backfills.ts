/**
 * Archive backfill (server/src/backfill): what was published before, narrated newest first at the
 * queue's own pace. Plain types and constants, imported by the server and the admin alike.
 */

/**
 * `held`: the month's budget has no room for the next article (it goes on when it has); `done`:
 * every article was queued and none waits any more.
 */
export const BACKFILL_STATUSES = ['running', 'paused', 'held', 'done', 'cancelled'] as const;
export type BackfillStatus = (typeof BACKFILL_STATUSES)[number];

/** What a backfill narrates: a type's published entries in one locale (null for a type without locales), published before a moment. */
export interface BackfillTarget {
  contentType: string;
  locale?: string | null;
  /** ISO 8601; the moment the backfill starts when left out. */
  publishedBefore?: string;
}

/** The pace the queue keeps: how many narrations it finishes a day, and the most a backfill keeps queued at once. */
export interface BackfillPace {
  perDay: number;
  backlog: number;
}

/** POST /speech/backfills/estimate: what a backfill would narrate and cost, in all and each day; nothing is queued. */
export interface BackfillEstimateRequest {
  body: BackfillTarget;
}
export interface BackfillEstimateResponse {
  /** Published entries without a narration: the ones it would narrate. */
  documents: number;
  credits: number;
  pace: BackfillPace;
  perDay: { documents: number; credits: number };
  /** Days at this pace until the last one is narrated. */
  days: number;
  /** The month's budget left (null: no budget); a backfill past it waits for the next month. */
  budgetRemaining: number | null;
  /** Past the first BACKFILL_ESTIMATE_SCAN entries the credits are the mean of those times the rest. */
  extrapolated: boolean;
}
export const BACKFILL_ESTIMATE_SCAN = 5_000;

/** POST /speech/backfills → 201 { id }. */
export interface BackfillStartRequest {
  body: BackfillTarget;
}
export interface BackfillStartResponse {
  id: number;
}

/** GET /speech/backfills/:id. */
export interface BackfillResponse {
  id: number;
  contentType: string;
  locale: string | null;
  publishedBefore: string;
  status: BackfillStatus;
  /** Narrated and stored. */
  done: number;
  /** In the queue now, from this backfill. */
  queued: number;
  /** Not queued yet. */
  left: number;
  failed: number;
  /** Charged by the service for this backfill's narrations, as the ledger records them. */
  credits: number;
  /** The entries it set out to narrate. */
  total: number;
  createdAt: string;
  createdBy: string | null;
}

/** GET /speech/backfills: the newest first. */
export interface BackfillListResponse {
  data: BackfillResponse[];
  pace: BackfillPace;
}

/** POST /speech/backfills/:id/pause | resume | cancel: the backfill as it is after. */
export type BackfillActionResponse = BackfillResponse;
export const BACKFILL_ACTIONS = ['pause', 'resume', 'cancel'] as const;
export type BackfillAction = (typeof BACKFILL_ACTIONS)[number];
