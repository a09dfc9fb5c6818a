/**
 * Credits, the budget and the ledger (server/src/credits): GET /speech/usage, GET
 * /speech/usage/ledger.csv, POST /speech/narrations/let-through. Plain types and constants, imported
 * by the server and the admin alike.
 *
 * `budget.monthlyCredits` (settings) and `monthToDate.credits` (GET /speech/usage) are a public
 * contract: other implementations of the speech service check the plugin through these two names.
 */
import type { DocumentTarget } from './common';

/** The error code of a narration the site's monthly budget holds: it waits, queued, for next month or a let-through. */
export const BUDGET_REACHED = 'BUDGET_REACHED';

/**
 * Who or what caused a request that can charge:
 * - `admin-publish`: an admin published (or, for types narrated on save, saved) in the admin;
 * - `api-publish`: a publish through the REST or GraphQL API, by an API token or a user;
 * - `narrate-now`: an editor's "narrate now" in the panel;
 * - `bulk`: the list view's bulk action;
 * - `regenerate`: an editor's "regenerate";
 * - `retry`: an operator's retry of failed narrations on the queue page;
 * - `automatic`: the plugin on its own (the reconciliation after an outage, a code publish with no request);
 * - `voice-preview`, `paragraph-preview`, `transcription`: the admin's previews and speech to text;
 * - `verification`: a regenerate a failed check asked for (a type with `verification.onMismatch: 'regenerate'`).
 */
export const LEDGER_CAUSES = [
  'admin-publish',
  'api-publish',
  'narrate-now',
  'bulk',
  'regenerate',
  'retry',
  'backfill',
  'automatic',
  'voice-preview',
  'paragraph-preview',
  'transcription',
  'verification',
] as const;
export type LedgerCause = (typeof LEDGER_CAUSES)[number];

/** What a ledger entry paid for: an article narrated whole, a part of a segmented one, a preview, a transcription. */
export const LEDGER_KINDS = ['narration', 'part', 'voice-preview', 'paragraph-preview', 'transcription'] as const;
export type LedgerKind = (typeof LEDGER_KINDS)[number];

/**
 * How a request ended, by the contract (spec 3.1): `pending` until its callback; `generated` (paid);
 * `redelivered` (asked again without `regenerate`, free); `refunded` (no audio, a failure, or a
 * delivery that never reached the site: the service gives the credits back); `refund-failed` (the
 * service said 422 REFUND_FAILED: the credits stay spent).
 */
export const LEDGER_OUTCOMES = ['pending', 'generated', 'redelivered', 'refunded', 'refund-failed'] as const;
export type LedgerOutcome = (typeof LEDGER_OUTCOMES)[number];

/** The site's monthly credit budget (settings key `budget`; a PUT may give any subset of its keys). */
export interface BudgetSettings {
  /** Credits a calendar month may spend, in the budget's time zone; null: no limit. Public contract. */
  monthlyCredits: number | null;
  /** The IANA time zone whose calendar months and days the budget and the usage view count in. */
  timeZone: string;
  /** A content type's own monthly limit, within the site's (by uid). */
  contentTypes: Record<string, number>;
}

/** One day of the ledger (in the budget's time zone). */
export interface UsageDay {
  /** YYYY-MM-DD. */
  day: string;
  /** Credits spent: charged, less what was refunded. */
  credits: number;
  /** The same, by content type uid; previews under `preview`, transcriptions under `transcription`. */
  byContentType: Record<string, number>;
  /** The same, by locale; entries without a locale under `none`. */
  byLocale: Record<string, number>;
  refunds: number;
  refundedCredits: number;
  redeliveries: number;
}

/** The month's credits against the budget. */
export interface MonthToDate {
  /** Credits charged this month by the ledger, refunds deducted (pending requests included). Public contract. */
  credits: number;
  /** Of those, credits of requests accepted and not yet settled by a callback. */
  pending: number;
  refunds: number;
  refundedCredits: number;
  redeliveries: number;
  entries: number;
}

export interface TopArticle extends Required<DocumentTarget> {
  title: string | null;
  credits: number;
  entries: number;
}

/** Narrations the budget holds, and what they would cost. */
export interface BudgetWaiting {
  articles: number;
  credits: number;
}

/** GET /speech/usage?days=30|90 (`settings.read`). */
export interface GetUsageResponse {
  timeZone: string;
  /** YYYY-MM, the current month in the budget's time zone. */
  month: string;
  monthToDate: MonthToDate;
  budget: {
    monthlyCredits: number | null;
    /** What the month may still spend; null without a limit. */
    remaining: number | null;
    /** Types with a limit of their own: the limit and what the month spent of it. */
    contentTypes: Record<string, { monthlyCredits: number; spent: number }>;
  };
  waiting: BudgetWaiting;
  /** Narrations that failed and are not being retried: what needs an editor's attention. */
  failures: number;
  /** Checks of verified narration (docs/verification.md) ended this month, by outcome, and those under way now. */
  checks: { done: number; verified: number; mismatches: number; failed: number; underWay: number };
  /** The last `days` days, or the month's days when the month began before them; oldest first, zeros included. */
  days: UsageDay[];
  /** The month's most expensive articles, most first (at most 10). */
  topArticles: TopArticle[];
  /**
   * The service's balance as last seen (Service-Credits-Remaining, the 402 details), and how much
   * the ledger charged since: a balance that fell by more than the ledger charged shows a drift.
   */
  balance: {
    creditsRemaining: number | null;
    seenAt: string | null;
    /** Credits the balance lost since the first balance the ledger saw, less what the ledger charged since; null before two readings. */
    drift: number | null;
  };
}

/** POST /speech/narrations/let-through (`settings.update`): submit one waiting narration over this month's budget. */
export interface LetThroughRequest {
  body: DocumentTarget;
}

export interface LetThroughResponse {
  articleId: string;
  /** False when no narration of this document waits for the budget. */
  released: boolean;
}

/** The columns of GET /speech/usage/ledger.csv, in order. */
export const LEDGER_CSV_COLUMNS = [
  'acceptedAt',
  'day',
  'kind',
  'cause',
  'causedBy',
  'contentType',
  'documentId',
  'locale',
  'title',
  'articleId',
  'characters',
  'factor',
  'regenerate',
  'credits',
  'outcome',
  'settledAt',
  'creditsRemaining',
] as const;
