import {
  LISTENING_MILESTONES,
  type ListenedArticle,
  type ListenedLocale,
  type ListeningDay,
  type ListeningTotals,
} from '../../../../shared/contracts/insights';
import { daysBetween } from './day';

/** What editors read, from daily totals. */

export interface DayTotals {
  day: string;
  articleId: string;
  contentType: string | null;
  documentId: string | null;
  locale: string;
  plays: number;
  listeners: number;
  reached: number[];
  deciseconds: number;
  downloads: number;
}

export const emptyTotals = (): ListeningTotals => ({
  plays: 0,
  listeners: 0,
  reached: LISTENING_MILESTONES.map(() => 0),
  secondsHeard: 0,
  downloads: 0,
});

/** Seconds from the stored tenths, rounded to stay exact. */
function addInto(into: ListeningTotals, row: DayTotals): ListeningTotals {
  into.plays += row.plays;
  into.listeners += row.listeners;
  row.reached.forEach((count, index) => (into.reached[index] += count));
  into.secondsHeard = Math.round(into.secondsHeard * 10 + row.deciseconds) / 10;
  into.downloads += row.downloads;
  return into;
}

export function totalsOf(rows: readonly DayTotals[]): ListeningTotals {
  return rows.reduce(addInto, emptyTotals());
}

export function daySeries(rows: readonly DayTotals[], from: string, to: string): ListeningDay[] {
  const byDay = new Map<string, ListeningTotals>();
  for (const row of rows) byDay.set(row.day, addInto(byDay.get(row.day) ?? emptyTotals(), row));
  return daysBetween(from, to).map((day) => ({ day, ...(byDay.get(day) ?? emptyTotals()) }));
}

export function topArticles(rows: readonly DayTotals[], titles: ReadonlyMap<string, string | null>, limit: number): ListenedArticle[] {
  const byArticle = new Map<string, { row: DayTotals; totals: ListeningTotals }>();
  for (const row of rows) {
    const entry = byArticle.get(row.articleId) ?? { row, totals: emptyTotals() };
    addInto(entry.totals, row);
    byArticle.set(row.articleId, entry);
  }
  return [...byArticle.values()]
    .sort(
      (a, b) =>
        b.totals.plays - a.totals.plays ||
        b.totals.downloads - a.totals.downloads ||
        b.totals.listeners - a.totals.listeners ||
        a.row.articleId.localeCompare(b.row.articleId)
    )
    .slice(0, limit)
    .map(({ row, totals }) => ({
      articleId: row.articleId,
      contentType: row.contentType ?? '',
      documentId: row.documentId ?? '',
      locale: row.locale,
      title: titles.get(row.articleId) ?? null,
      ...totals,
    }));
}

export function byLocale(rows: readonly DayTotals[]): ListenedLocale[] {
  const locales = new Map<string, ListeningTotals>();
  for (const row of rows) locales.set(row.locale, addInto(locales.get(row.locale) ?? emptyTotals(), row));
  return [...locales.entries()]
    .sort(([a, x], [b, y]) => y.plays - x.plays || a.localeCompare(b))
    .map(([locale, totals]) => ({ locale, ...totals }));
}

export function csvRow(row: DayTotals, title: string | null): unknown[] {
  return [
    row.day,
    row.contentType,
    row.documentId,
    row.locale,
    title,
    row.articleId,
    row.plays,
    row.listeners,
    ...row.reached,
    row.deciseconds / 10,
    row.downloads,
  ];
}
