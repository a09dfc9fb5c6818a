import { LISTENING_CSV_COLUMNS } from '../../../shared/contracts/insights';
import { ListeningTally, PLAYS_PER_LISTENER_PER_DAY, type ListeningTarget } from '../../../server/src/insights/domain/tally';
import { byLocale, csvRow, daySeries, topArticles, totalsOf, type DayTotals } from '../../../server/src/insights/domain/views';

const target = (articleId: string, durationSeconds: number | null = 60): ListeningTarget => ({
  articleId,
  contentType: 'api::article.article',
  documentId: articleId.split('-')[0],
  locale: articleId.split('-')[1] ?? null,
  durationSeconds,
});
const DAY = '2026-11-27';

function listenThrough(tally: ListeningTally, listener: string, narration = target('doc-en')) {
  tally.listen(DAY, narration, listener, { articleId: narration.articleId, event: 'play', heard: 0 });
  for (let percent = 10; percent < 100; percent += 10) {
    tally.listen(DAY, narration, listener, { articleId: narration.articleId, event: 'progress', percent, heard: 6 });
  }
  tally.listen(DAY, narration, listener, { articleId: narration.articleId, event: 'end', heard: 6 });
}

describe('ListeningTally', () => {
  it('adds a listening to the end: one play, each milestone, the seconds in tenths, one listener hash', () => {
    const tally = new ListeningTally();
    listenThrough(tally, 'hash-a');
    const batch = tally.drain();
    expect(batch.days).toEqual([{ day: DAY, target: target('doc-en'), plays: 1, reached: Array(10).fill(1), deciseconds: 600 }]);
    expect(batch.uniques).toEqual([{ day: DAY, kind: 'listener', articleId: 'doc-en', hash: 'hash-a' }]);
    expect(tally.empty).toBe(true);
  });

  it('counts a milestone at most once per play counted', () => {
    const tally = new ListeningTally();
    const narration = target('doc-en');
    tally.listen(DAY, narration, 'h', { articleId: 'doc-en', event: 'play', heard: 0 });
    for (let i = 0; i < 5; i++) tally.listen(DAY, narration, 'h', { articleId: 'doc-en', event: 'progress', percent: 50, heard: 0 });
    const [day] = tally.drain().days;
    expect(day.plays).toBe(1);
    expect(day.reached[4]).toBe(1);
  });

  it("counts what arrives before its play (beacons out of order) with that play, one listening's worth at most", () => {
    const tally = new ListeningTally();
    const narration = target('doc-en', 60);
    expect(tally.listen(DAY, narration, 'h', { articleId: 'doc-en', event: 'progress', percent: 60, heard: 6 })).toBe(false);
    expect(tally.listen(DAY, narration, 'h', { articleId: 'doc-en', event: 'end', heard: 30 })).toBe(false);
    expect(tally.drain().days).toEqual([]);
    tally.listen(DAY, narration, 'h', { articleId: 'doc-en', event: 'play', heard: 0 });
    const [first] = tally.drain().days;
    expect(first.plays).toBe(1);
    expect(first.reached).toEqual([0, 0, 0, 0, 0, 1, 0, 0, 0, 1]);
    expect(first.deciseconds).toBe(360);
    // The second listening's end before its play: it waits again, and is counted once.
    tally.listen(DAY, narration, 'h', { articleId: 'doc-en', event: 'end', heard: 0 });
    tally.listen(DAY, narration, 'h', { articleId: 'doc-en', event: 'end', heard: 0 });
    tally.listen(DAY, narration, 'h', { articleId: 'doc-en', event: 'play', heard: 0 });
    const [second] = tally.drain().days;
    expect(second.plays).toBe(1);
    expect(second.reached[9]).toBe(1);
    // Seconds before any play wait at most one play's worth: 3,600 s of a 60 s narration count 65.
    const other = new ListeningTally();
    other.listen(DAY, narration, 'x', { articleId: 'doc-en', event: 'pause', heard: 3600 });
    other.listen(DAY, narration, 'x', { articleId: 'doc-en', event: 'play', heard: 0 });
    expect(other.drain().days[0].deciseconds).toBe(650);
  });

  it("caps a listener's plays a day and the seconds heard at the narration's length (plus 5 s) a play", () => {
    const tally = new ListeningTally();
    const narration = target('doc-en', 60);
    for (let i = 0; i < 100; i++) tally.listen(DAY, narration, 'forger', { articleId: 'doc-en', event: 'play', heard: 3600 });
    const [day] = tally.drain().days;
    expect(day.plays).toBe(PLAYS_PER_LISTENER_PER_DAY);
    expect(day.deciseconds).toBe(PLAYS_PER_LISTENER_PER_DAY * 65 * 10);
    // Across drains: the caps remember what was counted before.
    tally.listen(DAY, narration, 'forger', { articleId: 'doc-en', event: 'play', heard: 0 });
    expect(tally.empty).toBe(true);
    // Another day starts afresh.
    tally.listen('2026-11-28', narration, 'forger', { articleId: 'doc-en', event: 'play', heard: 0 });
    expect(tally.drain().days[0].plays).toBe(1);
  });

  it('notes downloads by hash, once each', () => {
    const tally = new ListeningTally();
    tally.download(DAY, target('doc-en'), 'd1');
    tally.download(DAY, target('doc-en'), 'd1');
    tally.download(DAY, target('doc-en'), 'd2');
    const batch = tally.drain();
    expect(batch.uniques.map((u) => [u.kind, u.hash])).toEqual([
      ['download', 'd1'],
      ['download', 'd2'],
    ]);
    expect(batch.days).toHaveLength(1);
    expect(batch.days[0].plays).toBe(0);
  });

  it('restores a batch a flush could not write, added to what came in since', () => {
    const tally = new ListeningTally();
    listenThrough(tally, 'a');
    const failed = tally.drain();
    listenThrough(tally, 'b');
    tally.restore(failed);
    const batch = tally.drain();
    expect(batch.days).toHaveLength(1);
    expect(batch.days[0].plays).toBe(2);
    expect(batch.days[0].reached).toEqual(Array(10).fill(2));
    expect(batch.days[0].deciseconds).toBe(2 * 600);
    expect(batch.uniques.map((u) => u.hash).sort()).toEqual(['a', 'b']);
  });

  it('forgets the caps of old days', () => {
    const tally = new ListeningTally();
    for (let i = 0; i < PLAYS_PER_LISTENER_PER_DAY; i++)
      tally.listen(DAY, target('doc-en'), 'h', { articleId: 'doc-en', event: 'play', heard: 0 });
    tally.drain();
    tally.forgetBefore('2026-11-28');
    tally.listen(DAY, target('doc-en'), 'h', { articleId: 'doc-en', event: 'play', heard: 0 });
    expect(tally.drain().days[0].plays).toBe(1);
  });

  it("keeps the caps of the day it forgets before: that day's listener stays capped", () => {
    const tally = new ListeningTally();
    for (let i = 0; i < PLAYS_PER_LISTENER_PER_DAY; i++)
      tally.listen(DAY, target('doc-en'), 'h', { articleId: 'doc-en', event: 'play', heard: 0 });
    tally.drain();
    tally.forgetBefore(DAY);
    expect(tally.listen(DAY, target('doc-en'), 'h', { articleId: 'doc-en', event: 'play', heard: 0 })).toBe(false);
    expect(tally.empty).toBe(true);
  });

  it('says whether an event counted: a milestone or seconds alone do, a milestone already counted or nothing heard do not', () => {
    const tally = new ListeningTally();
    const narration = target('doc-en');
    expect(tally.listen(DAY, narration, 'h', { articleId: 'doc-en', event: 'play', heard: 0 })).toBe(true);
    expect(tally.listen(DAY, narration, 'h', { articleId: 'doc-en', event: 'progress', percent: 50, heard: 0 })).toBe(true);
    expect(tally.listen(DAY, narration, 'h', { articleId: 'doc-en', event: 'progress', percent: 50, heard: 0 })).toBe(false);
    expect(tally.listen(DAY, narration, 'h', { articleId: 'doc-en', event: 'pause', heard: 2.5 })).toBe(true);
    expect(tally.listen(DAY, narration, 'h', { articleId: 'doc-en', event: 'pause', heard: 0 })).toBe(false);
    const [day] = tally.drain().days;
    expect(day.reached).toEqual([0, 0, 0, 0, 1, 0, 0, 0, 0, 0]);
    expect(day.deciseconds).toBe(25);
  });

  it('reaches a milestone by progress or end only: a percent on another event is none', () => {
    const tally = new ListeningTally();
    // The events route refuses such an event; the tally does not rely on it.
    tally.listen(DAY, target('doc-en'), 'h', { articleId: 'doc-en', event: 'play', percent: 50, heard: 0 });
    tally.listen(DAY, target('doc-en'), 'h', { articleId: 'doc-en', event: 'pause', percent: 60, heard: 0 });
    expect(tally.drain().days[0].reached).toEqual(Array(10).fill(0));
  });

  it('counts an end that arrived twice before its play once, and not again at the next play', () => {
    const tally = new ListeningTally();
    const narration = target('doc-en');
    tally.listen(DAY, narration, 'h', { articleId: 'doc-en', event: 'end', heard: 0 });
    tally.listen(DAY, narration, 'h', { articleId: 'doc-en', event: 'end', heard: 0 });
    tally.listen(DAY, narration, 'h', { articleId: 'doc-en', event: 'play', heard: 0 });
    tally.listen(DAY, narration, 'h', { articleId: 'doc-en', event: 'play', heard: 0 });
    const [day] = tally.drain().days;
    expect(day.plays).toBe(2);
    expect(day.reached[9]).toBe(1);
  });

  it("keeps nothing waiting once a listener's plays are all counted, even if the narration gets longer that day", () => {
    const tally = new ListeningTally();
    for (let i = 0; i < PLAYS_PER_LISTENER_PER_DAY; i++)
      tally.listen(DAY, target('doc-en', 60), 'h', { articleId: 'doc-en', event: 'play', heard: 3600 });
    tally.drain();
    // 100 s beyond the plays' worth: no play can come to count them, so they are dropped, not kept.
    expect(tally.listen(DAY, target('doc-en', 60), 'h', { articleId: 'doc-en', event: 'pause', heard: 100 })).toBe(false);
    // Narrated again, twice as long: its plays now have room, but only for what is heard from now on.
    expect(tally.listen(DAY, target('doc-en', 120), 'h', { articleId: 'doc-en', event: 'pause', heard: 0 })).toBe(false);
    expect(tally.listen(DAY, target('doc-en', 120), 'h', { articleId: 'doc-en', event: 'pause', heard: 10 })).toBe(true);
    expect(tally.drain().days[0].deciseconds).toBe(100);
  });

  it('is not empty while it holds a narration day, or a hash, to write', () => {
    const tally = new ListeningTally();
    expect(tally.empty).toBe(true);
    tally.listen(DAY, target('doc-en'), 'h', { articleId: 'doc-en', event: 'play', heard: 0 });
    tally.drain();
    // A milestone after the drain of its play: a narration day without a new hash.
    tally.listen(DAY, target('doc-en'), 'h', { articleId: 'doc-en', event: 'progress', percent: 10, heard: 0 });
    expect(tally.empty).toBe(false);
    expect(tally.drain().uniques).toEqual([]);
    // Hashes put back without a narration day.
    tally.restore({ days: [], uniques: [{ day: DAY, kind: 'download', articleId: 'doc-en', hash: 'd1' }] });
    expect(tally.empty).toBe(false);
  });
});

describe('listening views', () => {
  const row = (day: string, articleId: string, locale: string, plays: number, extra: Partial<DayTotals> = {}): DayTotals => ({
    day,
    articleId,
    contentType: 'api::article.article',
    documentId: articleId.split('-')[0],
    locale,
    plays,
    listeners: plays,
    reached: Array(10).fill(Math.floor(plays / 2)),
    deciseconds: plays * 105,
    downloads: 0,
    ...extra,
  });
  const rows = [
    row('2026-11-25', 'a-en', 'en', 3),
    row('2026-11-27', 'a-en', 'en', 1),
    row('2026-11-27', 'b-ar', 'ar', 5, { downloads: 2 }),
  ];

  it('sums totals, seconds from tenths', () => {
    expect(totalsOf(rows)).toEqual({ plays: 9, listeners: 9, reached: Array(10).fill(1 + 0 + 2), secondsHeard: 94.5, downloads: 2 });
  });
  it('lists every day of the range, zeros included', () => {
    const series = daySeries(rows, '2026-11-24', '2026-11-27');
    expect(series.map((day) => [day.day, day.plays])).toEqual([
      ['2026-11-24', 0],
      ['2026-11-25', 3],
      ['2026-11-26', 0],
      ['2026-11-27', 6],
    ]);
  });
  it('ranks articles by plays, with their titles, and groups locales', () => {
    const top = topArticles(rows, new Map([['b-ar', 'مقال']]), 10);
    expect(top.map((article) => [article.articleId, article.plays, article.title])).toEqual([
      ['b-ar', 5, 'مقال'],
      ['a-en', 4, null],
    ]);
    expect(topArticles(rows, new Map(), 1)).toHaveLength(1);
    expect(byLocale(rows).map((locale) => [locale.locale, locale.plays])).toEqual([
      ['ar', 5],
      ['en', 4],
    ]);
  });
  it('ranks ties on plays by downloads, then listeners, then article id, whatever the order read', () => {
    const tied = [
      row('2026-11-27', 'e-en', 'en', 2, { downloads: 1, listeners: 9 }),
      row('2026-11-27', 'a-en', 'en', 2, { downloads: 5, listeners: 1 }),
      row('2026-11-27', 'd-en', 'en', 2, { downloads: 1, listeners: 9 }),
      row('2026-11-27', 'b-en', 'en', 4, { downloads: 0, listeners: 1 }),
      row('2026-11-27', 'c-en', 'en', 2, { downloads: 5, listeners: 3 }),
    ];
    const order = (list: DayTotals[]) => topArticles(list, new Map(), 10).map((article) => article.articleId);
    expect(order(tied)).toEqual(['b-en', 'c-en', 'a-en', 'd-en', 'e-en']);
    expect(order([...tied].reverse())).toEqual(['b-en', 'c-en', 'a-en', 'd-en', 'e-en']);
  });
  it('lists an article whose type or document is unknown with empty ones', () => {
    const [known, unknown] = topArticles(
      [row('2026-11-27', 'a-en', 'en', 2), row('2026-11-27', 'x-en', 'en', 1, { contentType: null, documentId: null })],
      new Map(),
      10
    );
    expect([known.contentType, known.documentId]).toEqual(['api::article.article', 'a']);
    expect([unknown.articleId, unknown.contentType, unknown.documentId]).toEqual(['x-en', '', '']);
  });
  it('ranks locales by plays, then by name', () => {
    const locales = [row('2026-11-27', 'c-fr', 'fr', 2), row('2026-11-27', 'a-en', 'en', 5), row('2026-11-27', 'b-ar', 'ar', 2)];
    expect(byLocale(locales).map((locale) => locale.locale)).toEqual(['en', 'ar', 'fr']);
    expect(byLocale([...locales].reverse()).map((locale) => locale.locale)).toEqual(['en', 'ar', 'fr']);
  });
  it('writes a CSV row in the contract columns order', () => {
    expect(csvRow(rows[2], null)).toHaveLength(LISTENING_CSV_COLUMNS.length);
    expect(csvRow(rows[2], 'مقال')).toEqual([
      '2026-11-27',
      'api::article.article',
      'b',
      'ar',
      'مقال',
      'b-ar',
      5,
      5,
      ...Array(10).fill(2),
      52.5,
      2,
    ]);
  });
});
