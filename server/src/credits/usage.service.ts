import { Readable } from 'node:stream';
import { LEDGER_CSV_COLUMNS, type GetUsageResponse } from '../../../shared/contracts/usage';
import { type DocumentPermissions, readableRows, type ContentTypeFacts, type RowDocument } from '../access';
import type { SettingsService } from '../settings';
import type { BudgetService } from './budget.service';
import type { LedgerService } from './ledger.service';
import { monthBounds, monthOf, usageWindow } from './domain/calendar';
import { csvLine } from '../http';
import { usageDays, monthToDate } from './domain/usage-view';
import { NO_LOCALE } from './domain/totals';
import type { ArticleMonthRow, LedgerEntryRow, LedgerRepository } from './ledger.repository';

/**
 * The usage view and the ledger's CSV. Reads totals, never entries, so 90 days read as fast over a
 * million entries as over ten. Documents the admin may not read are left blank; their figures still count.
 */

const TOP_ARTICLES = 10;
const TOP_ARTICLES_PAGE = 50;
const CSV_PAGE = 1_000;

const DOCUMENT_COLUMNS: ReadonlySet<string> = new Set(['documentId', 'title', 'articleId']);

const articleDocument = (row: ArticleMonthRow): RowDocument => ({
  contentType: row.contentType,
  documentId: row.targetDocumentId,
  locale: row.targetLocale === NO_LOCALE ? null : row.targetLocale,
});

const entryDocument = (entry: LedgerEntryRow): RowDocument | null =>
  entry.contentType && entry.targetDocumentId
    ? { contentType: entry.contentType, documentId: entry.targetDocumentId, locale: entry.targetLocale || null }
    : null;

export interface UsageServiceDeps {
  repository: LedgerRepository;
  settings: Pick<SettingsService, 'get'>;
  budget: Pick<BudgetService, 'waiting'>;
  ledger: Pick<LedgerService, 'balance'>;
  failures: () => Promise<number>;
  checks: (since: Date) => Promise<GetUsageResponse['checks']>;
  permissions: Pick<DocumentPermissions, 'permitted'>;
  types: ContentTypeFacts;
}

export function createUsageService({
  repository,
  settings,
  budget: budgetService,
  ledger,
  failures,
  checks,
  permissions,
  types,
}: UsageServiceDeps) {
  const readable = <Row>(userAbility: unknown, rows: Row[], documentOf: (row: Row) => RowDocument | null) =>
    readableRows({ permissions, types }, userAbility, rows, documentOf);

  async function topReadable(userAbility: unknown, month: string): Promise<ArticleMonthRow[]> {
    const top: ArticleMonthRow[] = [];
    for (let offset = 0; top.length < TOP_ARTICLES; offset += TOP_ARTICLES_PAGE) {
      const rows = await repository.topArticles(month, TOP_ARTICLES_PAGE, offset);
      top.push(...(await readable(userAbility, rows, articleDocument)));
      if (rows.length < TOP_ARTICLES_PAGE) break;
    }
    return top.slice(0, TOP_ARTICLES);
  }

  return {
    async usage(userAbility: unknown, days: number, at = new Date()): Promise<GetUsageResponse> {
      const { budget } = await settings.get();
      const { timeZone } = budget;
      const month = monthOf(at, timeZone);
      const shown = usageWindow(at, days, timeZone);
      const [rows, top, waiting, failed, balance, checked] = await Promise.all([
        repository.days(shown[0], shown[shown.length - 1]),
        topReadable(userAbility, month),
        budgetService.waiting(),
        failures(),
        ledger.balance(),
        checks(monthBounds(month, timeZone).start),
      ]);
      const monthRows = rows.filter((row) => row.day.startsWith(month));
      const mtd = monthToDate(monthRows);
      return {
        timeZone,
        month,
        monthToDate: mtd,
        budget: budgetFigures(budget, monthRows, mtd.credits),
        waiting,
        failures: failed,
        checks: checked,
        days: usageDays(shown, rows),
        topArticles: top.map(topArticle),
        balance,
      };
    },

    /** Streamed a page at a time, oldest first. */
    ledgerCsv(userAbility: unknown): Readable {
      async function* lines() {
        yield csvLine(LEDGER_CSV_COLUMNS);
        let after = 0;
        for (;;) {
          const page = await repository.page(after, CSV_PAGE);
          const shown = new Set(await readable(userAbility, page, entryDocument));
          for (const entry of page) {
            const record: Record<string, unknown> = { ...entry, documentId: entry.targetDocumentId, locale: entry.targetLocale };
            const hidden = entryDocument(entry) !== null && !shown.has(entry);
            yield csvLine(LEDGER_CSV_COLUMNS.map((column) => (hidden && DOCUMENT_COLUMNS.has(column) ? null : record[column])));
          }
          if (page.length < CSV_PAGE) return;
          after = page[page.length - 1].id;
        }
      }
      return Readable.from(lines());
    },
  };
}

/** The month's budget beside what it has spent, the site's and each limited type's. */
function budgetFigures(
  budget: { monthlyCredits: number | null; contentTypes: Record<string, number> },
  monthRows: ReadonlyArray<{ source: string; charged: number; refunded: number }>,
  spent: number
): GetUsageResponse['budget'] {
  const typeSpent = (uid: string) =>
    monthRows.filter((row) => row.source === uid).reduce((sum, row) => sum + row.charged - row.refunded, 0);
  return {
    monthlyCredits: budget.monthlyCredits,
    remaining: budget.monthlyCredits === null ? null : Math.max(0, budget.monthlyCredits - spent),
    contentTypes: Object.fromEntries(
      Object.entries(budget.contentTypes).map(([uid, monthlyCredits]) => [uid, { monthlyCredits, spent: typeSpent(uid) }])
    ),
  };
}

const topArticle = (row: ArticleMonthRow): GetUsageResponse['topArticles'][number] => ({
  contentType: row.contentType,
  documentId: row.targetDocumentId,
  locale: row.targetLocale === NO_LOCALE ? null : row.targetLocale,
  title: row.title,
  credits: row.spent,
  entries: row.entries,
});
