import { Readable } from 'node:stream';
import type { Core } from '@strapi/strapi';
import { LEDGER_CSV_COLUMNS, type GetUsageResponse } from '../../../shared/contracts/usage';
import { getService } from '../utils';
import { lastDays, monthOf } from './domain/calendar';
import { csvLine } from '../http/csv';
import { usageDays, monthToDate } from './domain/usage-view';
import { NO_LOCALE } from './domain/totals';
import { createLedgerRepository } from './ledger.repository';

/**
 * The usage view (GET /speech/usage) and the ledger's CSV. Reads the daily totals (a few rows per
 * day) and the articles' monthly totals (by index), never the entries: 90 days over a ledger of a
 * million entries read as fast as over ten. The CSV reads the entries a page at a time.
 */

const TOP_ARTICLES = 10;
const CSV_PAGE = 1_000;

export function createUsageService(strapi: Core.Strapi) {
  const repository = createLedgerRepository(strapi);

  return {
    async usage(days: number, at = new Date()): Promise<GetUsageResponse> {
      const { budget } = await getService('settings').get();
      const { timeZone } = budget;
      const month = monthOf(at, timeZone);
      const shown = lastDays(at, days, timeZone);
      const first = shown[0] < `${month}-01` ? shown[0] : `${month}-01`;
      const [rows, top, waiting, counts, balance] = await Promise.all([
        repository.days(first, shown[shown.length - 1]),
        repository.topArticles(month, TOP_ARTICLES),
        getService('budget').waiting(),
        getService('jobs').countByStatus(),
        getService('ledger').balance(),
      ]);
      const monthRows = rows.filter((row) => row.day.startsWith(month));
      const mtd = monthToDate(monthRows);
      const typeSpent = (uid: string) =>
        monthRows.filter((row) => row.source === uid).reduce((sum, row) => sum + row.charged - row.refunded, 0);
      return {
        timeZone,
        month,
        monthToDate: mtd,
        budget: {
          monthlyCredits: budget.monthlyCredits,
          remaining: budget.monthlyCredits === null ? null : Math.max(0, budget.monthlyCredits - mtd.credits),
          contentTypes: Object.fromEntries(
            Object.entries(budget.contentTypes).map(([uid, monthlyCredits]) => [uid, { monthlyCredits, spent: typeSpent(uid) }])
          ),
        },
        waiting,
        failures: counts.failed ?? 0,
        days: usageDays(shown, rows),
        topArticles: top.map((row) => ({
          contentType: row.contentType,
          documentId: row.targetDocumentId,
          locale: row.targetLocale === NO_LOCALE ? null : row.targetLocale,
          title: row.title,
          credits: row.spent,
          entries: row.entries,
        })),
        balance,
      };
    },

    /** The whole ledger as CSV, oldest first, streamed a page of entries at a time. */
    ledgerCsv(): Readable {
      async function* lines() {
        yield csvLine(LEDGER_CSV_COLUMNS);
        let after = 0;
        for (;;) {
          const page = await repository.page(after, CSV_PAGE);
          for (const entry of page) {
            const record: Record<string, unknown> = { ...entry, documentId: entry.targetDocumentId, locale: entry.targetLocale };
            yield csvLine(LEDGER_CSV_COLUMNS.map((column) => record[column]));
          }
          if (page.length < CSV_PAGE) return;
          after = page[page.length - 1].id;
        }
      }
      return Readable.from(lines());
    },
  };
}

export type UsageService = ReturnType<typeof createUsageService>;
