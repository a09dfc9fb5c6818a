/** GET /speech/usage answers as the admin types them, and a CSV route's answer, for the usage and listening unit tests. */
import type { FetchClient } from '@strapi/strapi/admin';
import type { GetUsageResponse, UsageDay } from '../../../admin/src/api/types';

export const ARTICLE = 'api::article.article';
export const NOTE = 'api::note.note';

/** A day of the ledger; `byContentType` and `byLocale` default to the credits under the article type and `en`. */
export const usageDay = (day: string, credits: number, changes: Partial<UsageDay> = {}): UsageDay => ({
  day,
  credits,
  byContentType: credits ? { [ARTICLE]: credits } : {},
  byLocale: credits ? { en: credits } : {},
  refunds: 0,
  refundedCredits: 0,
  redeliveries: 0,
  ...changes,
});

export const usageResponse = (changes: Partial<GetUsageResponse> = {}): GetUsageResponse => ({
  timeZone: 'Europe/Berlin',
  month: '2026-11',
  monthToDate: { credits: 0, pending: 0, refunds: 0, refundedCredits: 0, redeliveries: 0, entries: 0 },
  budget: { monthlyCredits: null, remaining: null, contentTypes: {} },
  waiting: { articles: 0, credits: 0 },
  failures: 0,
  days: [],
  topArticles: [],
  balance: { creditsRemaining: null, seenAt: null, drift: null },
  ...changes,
});

/** The admin fetch client's `get`, answering one response (a CSV export); `calls` says what it was asked. */
export function csvClient(status: number, body: string, disposition: string | null) {
  const calls: Array<{ url: string; options: unknown }> = [];
  const fake = {
    get: async (url: string, options: unknown) => {
      calls.push({ url, options });
      return { status, data: new Blob([body]), headers: new Headers(disposition ? { 'Content-Disposition': disposition } : {}) };
    },
  } as unknown as FetchClient;
  return { fake, calls };
}
