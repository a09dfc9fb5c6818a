import { createInsightsViews } from '../../../server/src/insights/insights-views.service';
import type { InsightsRepository } from '../../../server/src/insights/insights.repository';
import type { DayTotals } from '../../../server/src/insights/domain/views';
import { documentKey } from '../../../server/src/access/document-permissions';

/**
 * The site's listening as an admin may read it (insights/insights-views.service.ts), with the repository's
 * sums done in memory and the Content Manager's decision given: figures of a type and locale read
 * whole come from the per-day sums, those read in part from the days of the readable narrations
 * only, and nothing of an unreadable narration shows anywhere.
 */

const ARTICLE = 'api::article.article';
const NOTE = 'api::note.note';
const row = (day: string, articleId: string, contentType: string, locale: string, plays: number): DayTotals => ({
  day,
  articleId,
  contentType,
  documentId: articleId.split('-')[0],
  locale,
  plays,
  listeners: plays,
  reached: Array(10).fill(plays),
  deciseconds: plays * 10,
  downloads: 1,
});
const ROWS = [
  row('2026-11-26', 'a-en', ARTICLE, 'en', 2),
  row('2026-11-27', 'a-en', ARTICLE, 'en', 3),
  row('2026-11-27', 'b-en', ARTICLE, 'en', 5),
  row('2026-11-26', 'c-ar', ARTICLE, 'ar', 7),
  row('2026-11-27', 'n1', NOTE, 'none', 11),
];

function fakeRepository(): InsightsRepository & { calls: string[] } {
  const calls: string[] = [];
  const sumBy = (key: (r: DayTotals) => string, blank: (r: DayTotals) => Partial<DayTotals>) => {
    const sums = new Map<string, DayTotals>();
    for (const r of ROWS) {
      const into = sums.get(key(r)) ?? {
        ...r,
        ...blank(r),
        plays: 0,
        listeners: 0,
        reached: Array(10).fill(0),
        deciseconds: 0,
        downloads: 0,
      };
      into.plays += r.plays;
      into.listeners += r.listeners;
      into.deciseconds += r.deciseconds;
      into.downloads += r.downloads;
      r.reached.forEach((count, index) => (into.reached[index] += count));
      sums.set(key(r), into);
    }
    return [...sums.values()];
  };
  return {
    calls,
    async sums(_first: string, _last: string, group: 'article' | 'day') {
      calls.push(`sums:${group}`);
      return group === 'article'
        ? sumBy(
            (r) => r.articleId,
            () => ({ day: '' })
          )
        : sumBy(
            (r) => `${r.day}|${r.contentType}|${r.locale}`,
            () => ({ articleId: '', documentId: null })
          );
    },
    async days(_first: string, _last: string, ids?: string | string[]) {
      calls.push(`days:${[ids ?? []].flat().join(',')}`);
      return ROWS.filter((r) => ids === undefined || [ids].flat().includes(r.articleId));
    },
  } as unknown as InsightsRepository & { calls: string[] };
}

function views(readable: string[]) {
  const repository = fakeRepository();
  const content = { exists: (uid: string) => uid === ARTICLE || uid === NOTE, isLocalized: (uid: string) => uid === ARTICLE };
  const strapi = {
    db: { query: () => ({ findMany: async () => [{ articleId: 'b-en', title: 'B' }] }) },
  };
  const permissions = {
    permitted: async (_ability: unknown, uid: string, targets: Array<{ documentId: string; locale: string | null }>) =>
      new Set(
        targets
          .filter((target) => readable.includes(`${uid}:${target.documentId}`))
          .map((target) => documentKey(target.documentId, target.locale))
      ),
  };
  return {
    repository,
    views: createInsightsViews({
      strapi: strapi as never,
      repository,
      permissions: () => permissions as never,
      content: () => content as never,
      now: () => new Date('2026-11-27T12:00:00Z'),
    }),
  };
}

describe('the site view by permission', () => {
  it('reads everything from the sums when every narration may be read', async () => {
    const { views: site, repository } = views([`${ARTICLE}:a`, `${ARTICLE}:b`, `${ARTICLE}:c`, `${NOTE}:n1`]);
    const view = await site.site({}, 7);
    expect(view.totals.plays).toBe(28);
    expect(view.days.slice(-2).map((day) => day.plays)).toEqual([9, 19]);
    // Equal plays: more downloads first (a-en was downloaded on two days).
    expect(view.topArticles.map((article) => [article.articleId, article.plays])).toEqual([
      ['n1', 11],
      ['c-ar', 7],
      ['a-en', 5],
      ['b-en', 5],
    ]);
    expect(repository.calls).toEqual(['sums:article', 'sums:day']);
  });

  it('counts only the readable narrations of a type and locale read in part, from their own days', async () => {
    const { views: site, repository } = views([`${ARTICLE}:b`, `${ARTICLE}:c`]);
    const view = await site.site({}, 7);
    expect(view.totals.plays).toBe(12);
    expect(view.days.slice(-2).map((day) => day.plays)).toEqual([7, 5]);
    expect(view.topArticles.map((article) => article.articleId)).toEqual(['c-ar', 'b-en']);
    expect(view.topArticles.find((article) => article.articleId === 'b-en')?.title).toBe('B');
    expect(view.byLocale.map((locale) => [locale.locale, locale.plays])).toEqual([
      ['ar', 7],
      ['en', 5],
    ]);
    // ar is read whole (from the day sums), en in part (b-en's own days); the note type not at all.
    expect(repository.calls).toEqual(['sums:article', 'sums:day', 'days:b-en']);
  });

  it('shows nothing to an admin who may read none', async () => {
    const { views: site, repository } = views([]);
    const view = await site.site({}, 7);
    expect(view.totals.plays).toBe(0);
    expect(view.days.every((day) => day.plays === 0)).toBe(true);
    expect(view.topArticles).toEqual([]);
    expect(repository.calls).toEqual(['sums:article']);
  });
});
