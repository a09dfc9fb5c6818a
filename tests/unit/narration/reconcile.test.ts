import { firstCursor, planReconcile, versionUnrecorded, type LiveRowStamp } from '../../../server/src/narration/domain/reconcile';
import { publishedLater } from '../../../server/src/queue/domain/narration-row';

const MINUTE = 60_000;
const now = new Date('2026-11-25T12:00:00.000Z');
/** This process has run the plugin for a week: only the tests of a gap say otherwise. */
const timing = { now, settleMs: 2 * MINUTE, intervalMs: 5 * MINUTE, runningSince: new Date(now.getTime() - 7 * 24 * 60 * MINUTE) };
const ago = (ms: number) => new Date(now.getTime() - ms).toISOString();
const row = (id: number, publishedAgoMs: number, locale: string | null = null): LiveRowStamp => ({
  id,
  documentId: `doc-${id}`,
  locale,
  publishedAt: ago(publishedAgoMs),
});

describe('reconciliation plan', () => {
  it('starts after every row that exists, so nothing published before is narrated by surprise', () => {
    expect(firstCursor(41, now)).toEqual({ afterId: 41, passedAt: now.toISOString() });
    expect(firstCursor(null, now)).toEqual({ afterId: 0, passedAt: now.toISOString() });
  });

  it('records settled rows published since the last pass and moves the cursor past them', () => {
    const cursor = { afterId: 10, passedAt: ago(5 * MINUTE) };
    const plan = planReconcile(cursor, [row(11, 4 * MINUTE, 'en'), row(12, 3 * MINUTE, 'ar')], 200, timing);
    expect(plan.record.map((r) => [r.id, r.locale])).toEqual([
      [11, 'en'],
      [12, 'ar'],
    ]);
    expect(plan.skipped).toEqual([]);
    expect(plan.afterId).toBe(12);
    expect(plan.more).toBe(false);
  });

  it('leaves unsettled rows, and every row after them, for a later pass (a smaller id may still commit)', () => {
    const cursor = { afterId: 10, passedAt: ago(5 * MINUTE) };
    const plan = planReconcile(cursor, [row(11, 3 * MINUTE), row(12, 30_000), row(13, 3 * MINUTE)], 200, timing);
    expect(plan.record.map((r) => r.id)).toEqual([11]);
    expect(plan.afterId).toBe(11);
    expect(plan.more).toBe(false);
  });

  it('accepts Date objects from drivers that return them', () => {
    const plan = planReconcile(
      { afterId: 0, passedAt: ago(5 * MINUTE) },
      [{ ...row(1, 0), publishedAt: new Date(now.getTime() - 3 * MINUTE) }],
      200,
      timing
    );
    expect(plan.record.map((r) => r.id)).toEqual([1]);
  });

  it('skips rows published while no instance ran the plugin, and still moves past them', () => {
    // The plugin last ran a day ago (disabled since): what went live since then is not narrated by surprise.
    const cursor = { afterId: 10, passedAt: ago(24 * 60 * MINUTE) };
    const justBefore = row(11, 24 * 60 * MINUTE - MINUTE);
    const duringGap = row(12, 60 * MINUTE);
    // This process started the plugin 10 minutes ago.
    const plan = planReconcile(cursor, [justBefore, duringGap], 200, { ...timing, runningSince: new Date(now.getTime() - 10 * MINUTE) });
    expect(plan.record.map((r) => r.id)).toEqual([11]);
    expect(plan.skipped.map((r) => r.id)).toEqual([12]);
    expect(plan.afterId).toBe(12);
  });

  it('records rows published while this process ran the plugin, however long its passes failed since the last that worked', () => {
    // The last pass that saved its cursor was an hour ago; every pass since failed (the database refused the plugin's writes).
    const cursor = { afterId: 10, passedAt: ago(60 * MINUTE) };
    const beforeStart = row(11, 50 * MINUTE);
    const whileFailing = row(12, 30 * MINUTE);
    const plan = planReconcile(cursor, [beforeStart, whileFailing], 200, {
      ...timing,
      runningSince: new Date(now.getTime() - 40 * MINUTE),
    });
    expect(plan.record.map((r) => r.id)).toEqual([12]);
    expect(plan.skipped.map((r) => r.id)).toEqual([11]);
    expect(plan.afterId).toBe(12);
  });

  it('says there is more to read only when a full batch was all settled', () => {
    const cursor = { afterId: 0, passedAt: ago(5 * MINUTE) };
    expect(planReconcile(cursor, [row(1, 3 * MINUTE), row(2, 3 * MINUTE)], 2, timing).more).toBe(true);
    expect(planReconcile(cursor, [row(1, 3 * MINUTE), row(2, 10_000)], 2, timing).more).toBe(false);
    expect(planReconcile(cursor, [], 2, timing)).toEqual({ record: [], skipped: [], afterId: 0, more: false });
  });

  it('never moves the cursor backwards', () => {
    const plan = planReconcile({ afterId: 50, passedAt: ago(5 * MINUTE) }, [row(60, 10_000)], 200, timing);
    expect(plan.afterId).toBe(50);
  });
});

describe('which live versions the reconciliation records', () => {
  const published = (fingerprint: string, livePublishedAt: string | null = '2026-11-26T10:00:00.000Z') => ({
    fingerprint,
    livePublishedAt,
  });

  it('records a version its document has no narration of, or a narration of another version', () => {
    expect(versionUnrecorded(null, published('v2'))).toBe(true);
    expect(versionUnrecorded({ status: 'completed', fingerprint: 'v1' }, published('v2'))).toBe(true);
    expect(versionUnrecorded({ status: 'failed', fingerprint: 'v1' }, published('v2'))).toBe(true);
    // Recorded for an earlier publish: this one's recording was lost.
    expect(
      versionUnrecorded({ status: 'completed', fingerprint: 'v1', livePublishedAt: '2026-11-26T09:59:59.999Z' }, published('v2'))
    ).toBe(true);
  });

  it('records a cancelled narration of the same version again (unpublished, then live again)', () => {
    expect(versionUnrecorded({ status: 'cancelled', fingerprint: 'v1' }, published('v1'))).toBe(true);
    expect(
      versionUnrecorded({ status: 'cancelled', fingerprint: 'v1', livePublishedAt: '2026-11-26T09:00:00.000Z' }, published('v1'))
    ).toBe(true);
  });

  it('never retries a narration of this version, failed or on its way: a retry may be paid, and is the editor’s to ask', () => {
    for (const status of ['failed', 'completed', 'queued', 'awaiting_callback', 'storing']) {
      expect(versionUnrecorded({ status, fingerprint: 'v1' }, published('v1'))).toBe(false);
    }
  });

  it('leaves a publish that was recorded alone, though the settings changed since (another mode, voice or lexicon): they apply from the next publish', () => {
    // The same publish (as a Date from some drivers), and a later one: the fingerprint under today's settings differs.
    expect(
      versionUnrecorded(
        { status: 'completed', fingerprint: 'whole', livePublishedAt: new Date('2026-11-26T10:00:00.000Z') },
        published('parts')
      )
    ).toBe(false);
    expect(
      versionUnrecorded({ status: 'cancelled', fingerprint: 'whole', livePublishedAt: '2026-11-26T10:05:00.000Z' }, published('parts'))
    ).toBe(false);
    // Rows from before the column, and drafts, fall back to the fingerprint.
    expect(versionUnrecorded({ status: 'completed', fingerprint: 'whole', livePublishedAt: null }, published('parts'))).toBe(true);
    expect(
      versionUnrecorded(
        { status: 'completed', fingerprint: 'whole', livePublishedAt: '2026-11-26T10:00:00.000Z' },
        published('parts', null)
      )
    ).toBe(true);
  });

  it('tells a later publish from one a row recorded already', () => {
    expect(publishedLater('2026-11-26T10:00:00.000Z', null)).toBe(true);
    expect(publishedLater('2026-11-26T10:00:00.000Z', '2026-11-26T09:00:00.000Z')).toBe(true);
    expect(publishedLater('2026-11-26T10:00:00.000Z', new Date('2026-11-26T10:00:00.000Z'))).toBe(false);
    expect(publishedLater('2026-11-26T09:00:00.000Z', '2026-11-26T10:00:00.000Z')).toBe(false);
    // A draft is no publish.
    expect(publishedLater(null, null)).toBe(false);
  });
});
