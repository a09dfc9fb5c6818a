import { pageStatusOf, summarize, type StatusCell } from '../../../server/src/queue-page/domain/page-counts';
import { queueEntry } from '../../../server/src/queue-page/domain/entry';

const cell = (over: Partial<StatusCell>): StatusCell => ({
  contentType: 'api::article.article',
  locale: 'en',
  status: 'queued',
  code: null,
  count: 1,
  ...over,
});

describe('the queue page’s statuses', () => {
  it('tells a queued narration held by the budget or by a pause from one waiting its turn', () => {
    expect(pageStatusOf('queued', null, false)).toBe('queued');
    expect(pageStatusOf('queued', 'RATE_LIMIT_EXCEEDED', false)).toBe('queued');
    expect(pageStatusOf('queued', null, true)).toBe('paused');
    expect(pageStatusOf('queued', 'BUDGET_REACHED', true)).toBe('heldByBudget');
    expect(pageStatusOf('awaiting_parts', 'BUDGET_REACHED', false)).toBe('heldByBudget');
    expect(pageStatusOf('awaiting_parts', null, true)).toBe('awaitingService');
    expect(pageStatusOf('awaiting_callback', null, false)).toBe('awaitingService');
    expect(pageStatusOf('submitting', null, false)).toBe('submitting');
    expect(pageStatusOf('storing', null, false)).toBe('storing');
    expect(pageStatusOf('failed', 'NO_AUDIO', false)).toBe('failed');
    expect(pageStatusOf('completed', null, false)).toBeNull();
    expect(pageStatusOf('cancelled', null, false)).toBeNull();
  });

  it('adds the cells up as a whole, by type and locale, and failures by reason, most first', () => {
    const summary = summarize(
      [
        cell({ count: 4 }),
        cell({ locale: 'ar', count: 2 }),
        cell({ code: 'BUDGET_REACHED', count: 3 }),
        cell({ status: 'awaiting_callback', count: 2 }),
        cell({ status: 'failed', code: 'NO_AUDIO', count: 1 }),
        cell({ status: 'failed', code: 'PROCESSING_ERROR', locale: 'ar', count: 2 }),
        cell({ status: 'failed', code: null, contentType: 'api::page.page', locale: null, count: 2 }),
        cell({ status: 'completed', count: 100 }),
        cell({ status: 'failed', count: 0 }),
      ],
      false
    );
    expect(summary.counts).toEqual({ queued: 6, submitting: 0, awaitingService: 2, storing: 0, failed: 5, heldByBudget: 3, paused: 0 });
    expect(summary.groups.map((group) => [group.contentType, group.locale, group.counts.queued, group.counts.failed])).toEqual([
      ['api::article.article', 'ar', 2, 2],
      ['api::article.article', 'en', 4, 1],
      ['api::page.page', null, 0, 2],
    ]);
    expect(summary.failureReasons).toEqual([
      { code: null, count: 2 },
      { code: 'PROCESSING_ERROR', count: 2 },
      { code: 'NO_AUDIO', count: 1 },
    ]);
  });

  it('counts queued narrations as paused while the queue is paused', () => {
    const summary = summarize([cell({ count: 5 }), cell({ code: 'BUDGET_REACHED', count: 1 })], true);
    expect(summary.counts.queued).toBe(0);
    expect(summary.counts.paused).toBe(5);
    expect(summary.counts.heldByBudget).toBe(1);
  });

  it('lists a queued row since it may go, any other since it was last sent', () => {
    const row = {
      articleId: 'd1-en',
      contentType: 'api::article.article',
      targetDocumentId: 'd1',
      targetLocale: 'en',
      title: 'A title',
      attempts: 2,
      credits: 40,
      lastError: 'No audio.',
      lastErrorCode: 'NO_AUDIO',
      nextAttemptAt: '2026-12-03T10:00:00.000Z',
      submittedAt: '2026-12-03T09:00:00.000Z',
      updatedAt: '2026-12-03T08:00:00.000Z',
    } as Parameters<typeof queueEntry>[0];
    expect(queueEntry({ ...row, status: 'queued' }).since).toBe('2026-12-03T10:00:00.000Z');
    expect(queueEntry({ ...row, status: 'failed' })).toMatchObject({
      since: '2026-12-03T09:00:00.000Z',
      heldByBudget: false,
      documentId: 'd1',
    });
    expect(queueEntry({ ...row, status: 'failed', submittedAt: null }).since).toBe('2026-12-03T08:00:00.000Z');
    expect(queueEntry({ ...row, status: 'queued', lastErrorCode: 'BUDGET_REACHED' }).heldByBudget).toBe(true);
  });
});
