import { NO_LOCALE_KEY } from '../../../shared/contracts/common';
import type { GetUsageResponse } from '../../../shared/contracts/usage';
import { OTHER_SERIES, type StackBy } from './usageChart';

/**
 * How the usage figures read: the month against the budget, the series' names, the days' dates.
 * Pure, so what editors are told is unit-tested without a browser.
 */

/** `none`: no budget; `ok` under 80 %; `near` from 80 %; `reached` once nothing remains. */
export type BudgetState = 'none' | 'ok' | 'near' | 'reached';

export const NEAR_BUDGET = 0.8;

export interface BudgetProgress {
  spent: number;
  limit: number | null;
  remaining: number | null;
  /** Spent over the limit, 0..1 for the bar (a month over its budget shows full); null without a limit. */
  ratio: number | null;
  state: BudgetState;
}

/** The month to date against the site's budget, as the usage answer gives them. */
export function budgetProgress(usage: Pick<GetUsageResponse, 'monthToDate' | 'budget'>): BudgetProgress {
  const spent = usage.monthToDate.credits;
  const limit = usage.budget.monthlyCredits;
  if (limit === null) return { spent, limit, remaining: null, ratio: null, state: 'none' };
  // The server's remaining is the one the budget holds narrations by; it is computed here only when absent.
  const remaining = usage.budget.remaining ?? Math.max(0, limit - spent);
  const ratio = limit > 0 ? Math.min(1, Math.max(0, spent / limit)) : 1;
  const state: BudgetState = remaining <= 0 ? 'reached' : ratio >= NEAR_BUDGET ? 'near' : 'ok';
  return { spent, limit, remaining, ratio, state };
}

/** A series' name: a content type's display name, a locale's code, or the ledger's own buckets. */
export type SeriesName = { kind: 'name'; text: string } | { kind: 'message'; id: string; defaultMessage: string };

/** Names of the series that are no content type or locale; their ids are translation keys. */
export const SERIES_MESSAGES = {
  preview: { id: 'usage.series.preview', defaultMessage: 'Previews' },
  transcription: { id: 'usage.series.transcription', defaultMessage: 'Transcriptions' },
  other: { id: 'usage.series.other', defaultMessage: 'Other' },
  noLocale: { id: 'usage.series.noLocale', defaultMessage: 'No locale' },
} as const;

/** The ledger's buckets of entries that belong to no content type (shared/contracts/usage.ts). */
const BUCKETS: Record<string, { id: string; defaultMessage: string }> = {
  preview: SERIES_MESSAGES.preview,
  transcription: SERIES_MESSAGES.transcription,
};

export function seriesName(series: string, by: StackBy, displayNames: Readonly<Record<string, string>>): SeriesName {
  if (series === OTHER_SERIES) return { kind: 'message', ...SERIES_MESSAGES.other };
  if (by === 'locale') {
    return series === NO_LOCALE_KEY ? { kind: 'message', ...SERIES_MESSAGES.noLocale } : { kind: 'name', text: series };
  }
  const bucket = BUCKETS[series];
  if (bucket) return { kind: 'message', ...bucket };
  // A type the site no longer has still shows, by its uid's last part (api::article.article -> article).
  return { kind: 'name', text: displayNames[series] ?? series.split('.').pop() ?? series };
}

/** A YYYY-MM-DD day as a date at noon UTC, so formatting it in UTC never moves it to the next or previous day. */
export function dayDate(day: string): Date {
  const [year, month, date] = day.split('-').map(Number);
  return new Date(Date.UTC(year, month - 1, date, 12));
}

/** The day in the admin's language (`27 Nov`, `٢٧ نوفمبر`); the day itself is the budget's calendar day. */
export function formatDay(day: string, locale: string, options: Intl.DateTimeFormatOptions = { day: 'numeric', month: 'short' }): string {
  return new Intl.DateTimeFormat(locale, { ...options, timeZone: 'UTC' }).format(dayDate(day));
}

/** The month (YYYY-MM) in the admin's language: `November 2026`. */
export function formatMonth(month: string, locale: string): string {
  return formatDay(`${month}-15`, locale, { month: 'long', year: 'numeric' });
}

/** Which days get a label under the chart: about eight, always the last (today). */
export function labelledDays(count: number, wanted = 8): Set<number> {
  const every = Math.max(1, Math.ceil(count / wanted));
  const indexes = new Set<number>();
  for (let index = count - 1; index >= 0; index -= every) indexes.add(index);
  return indexes;
}

/** The file name of the ledger's CSV when the server gives none: `speech-ledger-2026-11-27.csv`. */
export const ledgerFileName = (today: string) => `speech-ledger-${today}.csv`;
