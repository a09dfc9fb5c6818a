import { downloadListeningCsv } from '../../../admin/src/api/ledger';
import type { GetInsightsResponse, ListenedArticle, ListenedLocale, ListeningTotals } from '../../../admin/src/api/types';
import {
  PERCENT,
  articleKey,
  completionShare,
  curveGeometry,
  dropOffCurve,
  heardTime,
  isSilent,
  listeningFileName,
  localeRows,
  mostListened,
  playsPerDay,
  rowFigures,
} from '../../../admin/src/utils/insights';
import { singleSeriesStacks } from '../../../admin/src/utils/usageChart';
import { LISTENING_MILESTONES } from '../../../shared/contracts/insights';
import { adminStore, closeAdminStores } from './api-store';
import { csvClient as client } from './usage-fixtures';

// ledger.ts reaches Strapi's admin only through binary.ts' token refresh, which these tests never need.
jest.mock('@strapi/strapi/admin', () => ({ attemptTokenRefresh: jest.fn() }));

afterEach(closeAdminStores);

const ARTICLE = 'api::article.article';

/** Totals of `plays` listenings of which `reached[i]` got to the i-th milestone. */
const totals = (plays: number, reached: number[] = Array(10).fill(0), changes: Partial<ListeningTotals> = {}): ListeningTotals => ({
  plays,
  listeners: plays,
  reached,
  secondsHeard: 0,
  downloads: 0,
  ...changes,
});

const article = (documentId: string, plays: number, changes: Partial<ListenedArticle> = {}): ListenedArticle => ({
  ...totals(plays),
  contentType: ARTICLE,
  documentId,
  locale: 'en',
  articleId: `${documentId}-en`,
  title: documentId,
  ...changes,
});

describe('the share who finished', () => {
  it('is the plays that reached 100 % over all plays', () => {
    expect(completionShare(totals(4, [4, 4, 4, 3, 3, 3, 2, 2, 2, 1]))).toBe(0.25);
    expect(completionShare(totals(1, Array(10).fill(1)))).toBe(1);
  });

  it('is unknown without a play (no 0 % for an article nobody played)', () => {
    expect(completionShare(totals(0))).toBeNull();
  });

  it('never reads over 100 % or under 0 %, whatever the counts', () => {
    expect(completionShare(totals(2, [3, 3, 3, 3, 3, 3, 3, 3, 3, 3]))).toBe(1);
    expect(completionShare(totals(2, []))).toBe(0);
  });

  it('formats as a whole percent in the admin’s language (Arabic: the digits and sign its locale data gives, marked to stay in place)', () => {
    expect(new Intl.NumberFormat('en', PERCENT).format(1)).toBe('100%');
    expect(new Intl.NumberFormat('en', PERCENT).format(2 / 3)).toBe('67%');
    const arabic = new Intl.NumberFormat('ar', PERCENT).format(0.5);
    expect(arabic).toMatch(/(50|٥٠)/u);
    expect(arabic).toMatch(/[%٪]/u);
  });
});

describe('the drop-off curve', () => {
  it('starts with every play at 0 %, then the share at each tenth, up to the end', () => {
    const curve = dropOffCurve(totals(4, [4, 4, 3, 3, 2, 2, 2, 1, 1, 1]));
    expect(curve.map((point) => point.milestone)).toEqual([0, ...LISTENING_MILESTONES]);
    expect(curve.map((point) => point.share)).toEqual([1, 1, 1, 0.75, 0.75, 0.5, 0.5, 0.5, 0.25, 0.25, 0.25]);
  });

  it('is empty without a play', () => {
    expect(dropOffCurve(totals(0))).toEqual([]);
  });

  const box = { width: 240, height: 72, padding: 4 };

  it('is drawn from the left in English: the start at the left edge, 100 % at the top, 0 % on the baseline', () => {
    const curve = dropOffCurve(totals(2, [2, 2, 2, 2, 2, 1, 1, 1, 1, 0]));
    const { points, path, area, baseline } = curveGeometry(curve, box, false);
    expect(points[0]).toEqual({ x: 4, y: 4 });
    expect(points.at(-1)).toEqual({ x: 236, y: 68 });
    expect(points[5]).toEqual({ x: 120, y: 4 });
    expect(points[6]).toEqual({ x: 143.2, y: 36 });
    expect(baseline).toBe(68);
    expect(path.startsWith('M4 4 L27.2 4')).toBe(true);
    expect(area.endsWith('L236 68 L4 68 Z')).toBe(true);
  });

  it('is drawn from the right in Arabic, as the text reads', () => {
    const curve = dropOffCurve(totals(1, Array(10).fill(1)));
    const { points } = curveGeometry(curve, box, true);
    expect(points[0]).toEqual({ x: 236, y: 4 });
    expect(points.at(-1)).toEqual({ x: 4, y: 4 });
    expect(points.map((point) => point.x)).toEqual([...points.map((point) => point.x)].sort((a, b) => b - a));
  });

  it('draws nothing for no point', () => {
    expect(curveGeometry([], box, false)).toMatchObject({ points: [], path: '', area: '' });
  });
});

describe('time heard', () => {
  it('reads in hours and minutes from an hour, minutes from a minute, else seconds', () => {
    expect(heardTime(3 * 3600 + 25 * 60 + 59)).toEqual({ unit: 'hours', hours: 3, minutes: 25 });
    expect(heardTime(3600)).toEqual({ unit: 'hours', hours: 1, minutes: 0 });
    expect(heardTime(59 * 60 + 59)).toEqual({ unit: 'minutes', minutes: 59 });
    expect(heardTime(42.4)).toEqual({ unit: 'seconds', seconds: 42 });
    expect(heardTime(0)).toEqual({ unit: 'seconds', seconds: 0 });
    expect(heardTime(-5)).toEqual({ unit: 'seconds', seconds: 0 });
  });
});

describe('table rows', () => {
  it('give plays, listeners, the share who finished, time heard and downloads', () => {
    expect(rowFigures(totals(10, [10, 9, 8, 7, 6, 5, 4, 3, 2, 2], { listeners: 7, secondsHeard: 600, downloads: 3 }))).toEqual({
      plays: 10,
      listeners: 7,
      completion: 0.2,
      secondsHeard: 600,
      downloads: 3,
    });
    expect(rowFigures(totals(0, undefined, { downloads: 5 })).completion).toBeNull();
  });

  it('order the locales by plays, then downloads, then code', () => {
    const locale = (code: string, plays: number, downloads = 0): ListenedLocale => ({ ...totals(plays), downloads, locale: code });
    const rows = localeRows([locale('none', 0, 4), locale('fr', 3), locale('ar', 7), locale('en', 3), locale('de', 0, 9)]);
    expect(rows.map((row) => row.locale)).toEqual(['ar', 'en', 'fr', 'de', 'none']);
  });

  it('key an article by document and locale (two locales of one document are two rows)', () => {
    expect(articleKey(article('d1', 1))).not.toBe(articleKey(article('d1', 1, { locale: 'ar' })));
    expect(articleKey(article('d1', 1, { locale: null }))).toBe(`${ARTICLE}|d1|`);
  });
});

it('the widget lists at most five articles, most played first, none that was not played', () => {
  const articles = [3, 9, 0, 5, 1, 7, 2].map((plays, index) => article(`d${index}`, plays));
  expect(mostListened(articles).map((item) => item.plays)).toEqual([9, 7, 5, 3, 2]);
  expect(mostListened([article('d0', 0, { downloads: 4 })])).toEqual([]);
});

it('the day chart gets one bar a day from the plays', () => {
  const days = [
    { day: '2026-11-26', ...totals(0) },
    { day: '2026-11-27', ...totals(3) },
  ];
  expect(singleSeriesStacks(playsPerDay(days), 'plays')).toEqual([
    { day: '2026-11-26', value: 0, segments: [{ series: 'plays', value: 0, from: 0, to: 0 }], top: 0 },
    { day: '2026-11-27', value: 3, segments: [{ series: 'plays', value: 3, from: 0, to: 3 }], top: 3 },
  ]);
});

it('a period is silent with neither a play nor a feed download', () => {
  expect(isSilent(totals(0))).toBe(true);
  expect(isSilent(totals(0, undefined, { downloads: 1 }))).toBe(false);
  expect(isSilent(totals(1))).toBe(false);
});

describe('the endpoints', () => {
  const empty: GetInsightsResponse = { from: '2026-11-21', to: '2026-11-27', totals: totals(0), days: [], topArticles: [], byLocale: [] };

  it('asks GET /speech/insights for the period, as text', async () => {
    const stack = adminStore(() => empty);
    const query = stack.store.dispatch(stack.api.endpoints.getSpeechInsights.initiate(7));
    expect((await query).data).toEqual(empty);
    expect(stack.sent('/speech/insights')).toEqual([{ url: '/speech/insights', method: 'GET', data: undefined, params: { days: '7' } }]);
    query.unsubscribe();
  });

  it('asks one document’s listening with its type, locale and days (no locale for a type without i18n)', async () => {
    const stack = adminStore(() => ({ articleId: 'x', from: '', to: '', totals: totals(0), days: [] }));
    const localized = stack.store.dispatch(
      stack.api.endpoints.getSpeechDocumentInsights.initiate({ contentType: ARTICLE, documentId: 'a b', locale: 'ar', days: 30 })
    );
    const plain = stack.store.dispatch(
      stack.api.endpoints.getSpeechDocumentInsights.initiate({ contentType: ARTICLE, documentId: 'c', locale: null, days: 30 })
    );
    await Promise.all([localized, plain]);
    expect(stack.sent('/speech/insights/document/a%20b')).toEqual([
      {
        url: '/speech/insights/document/a%20b',
        method: 'GET',
        data: undefined,
        params: { contentType: ARTICLE, locale: 'ar', days: '30' },
      },
    ]);
    expect(stack.sent('/speech/insights/document/c')[0].params).toEqual({ contentType: ARTICLE, days: '30' });
    localized.unsubscribe();
    plain.unsubscribe();
  });
});

describe('the listening CSV', () => {
  it('is fetched as a Blob through the admin client for the period, named as the server names it, else by day and period', async () => {
    const { fake, calls } = client(200, 'day,contentType\n', 'attachment; filename="speech-listening.csv"');
    const { blob, fileName } = await downloadListeningCsv(fake, 90, '2026-11-27');
    expect(calls).toEqual([
      { url: '/speech/insights/listening.csv', options: expect.objectContaining({ responseType: 'blob', params: { days: '90' } }) },
    ]);
    expect(await blob.text()).toBe('day,contentType\n');
    expect(fileName).toBe('speech-listening.csv');
    expect((await downloadListeningCsv(client(200, '', null).fake, 7, '2026-11-27')).fileName).toBe(listeningFileName('2026-11-27', 7));
    expect(listeningFileName('2026-11-27', 7)).toBe('speech-listening-7d-2026-11-27.csv');
  });

  it('fails with the server’s own message', async () => {
    const body = JSON.stringify({ error: { status: 400, name: 'ValidationError', message: 'days must be 7, 30 or 90', details: {} } });
    await expect(downloadListeningCsv(client(400, body, null).fake, 30, '2026-11-27')).rejects.toMatchObject({
      status: 400,
      message: 'days must be 7, 30 or 90',
    });
  });
});
