import type { Core } from '@strapi/strapi';
import { Readable } from 'stream';
import { LISTENING_CSV_COLUMNS, type GetDocumentInsightsResponse, type GetInsightsResponse } from '../../../shared/contracts/insights';
import { NO_LOCALE_KEY } from '../../../shared/contracts/common';
import { type DocumentPermissions, readableRows } from '../access';
import type { ContentReader } from '../narration';
import { NARRATION_UID } from '../content-types';
import { csvLine } from '../http';
import { addDays, utcDay } from './domain/day';
import { byLocale, daySeries, csvRow, topArticles, totalsOf, type DayTotals } from './domain/views';
import type { InsightsRepository } from './insights.repository';

/** Site figures count only narrations whose documents the admin may read in the Content Manager. */

const TOP_ARTICLES = 20;
const TITLES_PER_QUERY = 500;

export function createInsightsViews(deps: {
  strapi: Core.Strapi;
  repository: InsightsRepository;
  permissions: () => DocumentPermissions;
  content: () => ContentReader;
  now?: () => Date;
}) {
  const { strapi, repository } = deps;
  const now = deps.now ?? (() => new Date());

  function range(days: number) {
    const to = utcDay(now());
    return { from: addDays(to, -(days - 1)), to };
  }

  function readable(userAbility: unknown, rows: DayTotals[]): Promise<DayTotals[]> {
    return readableRows({ permissions: deps.permissions(), types: deps.content() }, userAbility, rows, (row) =>
      row.contentType && row.documentId
        ? { contentType: row.contentType, documentId: row.documentId, locale: row.locale === NO_LOCALE_KEY ? null : row.locale }
        : null
    );
  }

  async function titlesOf(articleIds: string[]): Promise<Map<string, string | null>> {
    const titles = new Map<string, string | null>();
    for (let start = 0; start < articleIds.length; start += TITLES_PER_QUERY) {
      const rows = (await strapi.db.query(NARRATION_UID).findMany({
        where: { articleId: { $in: articleIds.slice(start, start + TITLES_PER_QUERY) } },
        select: ['articleId', 'title'],
      })) as Array<{ articleId: string; title: string | null }>;
      for (const row of rows) titles.set(row.articleId, row.title ?? null);
    }
    return titles;
  }

  return {
    async document(articleId: string, days: number): Promise<GetDocumentInsightsResponse> {
      const { from, to } = range(days);
      const rows = await repository.days(from, to, articleId);
      return { articleId, from, to, totals: totalsOf(rows), days: daySeries(rows, from, to) };
    },

    /** Day series summed in the database where the admin reads a whole type and locale, else per narration. */
    async site(userAbility: unknown, days: number): Promise<GetInsightsResponse> {
      const { from, to } = range(days);
      const every = await repository.sums(from, to, 'article');
      const allowed = await readable(userAbility, every);
      const groupOf = (row: DayTotals) => `${row.contentType}\n${row.locale}`;
      const counted = (rows: DayTotals[]) =>
        rows.reduce((counts, row) => counts.set(groupOf(row), (counts.get(groupOf(row)) ?? 0) + 1), new Map<string, number>());
      const everyCount = counted(every);
      const whole = new Set([...counted(allowed)].filter(([group, count]) => everyCount.get(group) === count).map(([group]) => group));
      const partly = allowed.filter((row) => !whole.has(groupOf(row))).map((row) => row.articleId);
      const dayRows = [
        ...(whole.size ? (await repository.sums(from, to, 'day')).filter((row) => whole.has(groupOf(row))) : []),
        ...(partly.length ? await repository.days(from, to, partly) : []),
      ];
      const top = topArticles(allowed, new Map(), TOP_ARTICLES);
      const titles = await titlesOf(top.map((article) => article.articleId));
      return {
        from,
        to,
        totals: totalsOf(allowed),
        days: daySeries(dayRows, from, to),
        topArticles: top.map((article) => ({ ...article, title: titles.get(article.articleId) ?? null })),
        byLocale: byLocale(allowed),
      };
    },

    async csv(userAbility: unknown, days: number): Promise<Readable> {
      const { from, to } = range(days);
      const rows = (await readable(userAbility, await repository.days(from, to))).sort(
        (a, b) => a.day.localeCompare(b.day) || a.articleId.localeCompare(b.articleId)
      );
      const titles = await titlesOf([...new Set(rows.map((row) => row.articleId))]);
      return Readable.from(
        (function* () {
          yield csvLine(LISTENING_CSV_COLUMNS);
          for (const row of rows) yield csvLine(csvRow(row, titles.get(row.articleId) ?? null));
        })()
      );
    },
  };
}
