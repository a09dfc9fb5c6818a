import { StatusBoard } from '../../admin/src/api/statusBoardCore';
import type { NarrationStatus, NarrationView, QueueState } from '../../admin/src/api/types';

const QUEUE: QueueState = { paused: false, pausedUntil: null, pauseCode: null, pauseReason: null, creditsRemaining: null, creditsRequired: null, creditsSeenAt: null };
const row = (documentId: string, status: NarrationStatus, locale: string | null = null) => ({ documentId, status, locale }) as NarrationView;

describe('list view status board', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('batches the rows of a page into one request and polls while one is in progress', async () => {
    const statuses = new Map<string, NarrationStatus>([['a', 'queued'], ['b', 'completed']]);
    const fetcher = jest.fn(async (_type: string, ids: string[]) => ({
      data: ids.filter((id) => statuses.has(id)).map((id) => row(id, statuses.get(id)!)),
      queue: QUEUE,
    }));
    const board = new StatusBoard('api::article.article', fetcher, 1000);
    const listener = jest.fn();
    board.subscribe(listener);
    const cleanups = ['a', 'b', 'c'].map((id) => board.register(id));
    expect(board.rowsFor('a')).toBeUndefined();

    await jest.advanceTimersByTimeAsync(100);
    expect(fetcher).toHaveBeenCalledTimes(1);
    expect(fetcher).toHaveBeenCalledWith('api::article.article', ['a', 'b', 'c']);
    expect(board.rowsFor('a')?.[0].status).toBe('queued');
    expect(board.rowsFor('c')).toEqual([]);
    expect(listener).toHaveBeenCalled();

    statuses.set('a', 'completed');
    await jest.advanceTimersByTimeAsync(1000);
    expect(fetcher).toHaveBeenCalledTimes(2);
    expect(board.rowsFor('a')?.[0].status).toBe('completed');

    // Nothing in progress any more: no further polling.
    await jest.advanceTimersByTimeAsync(5000);
    expect(fetcher).toHaveBeenCalledTimes(2);
    cleanups.forEach((cleanup) => cleanup());
  });

  it('stops polling when the page is left, and refresh() asks again at once', async () => {
    const fetcher = jest.fn(async (_type: string, ids: string[]) => ({ data: ids.map((id) => row(id, 'awaiting_callback')), queue: QUEUE }));
    const board = new StatusBoard('api::page.page', fetcher, 1000);
    const cleanup = board.register('x');
    await jest.advanceTimersByTimeAsync(100);
    expect(fetcher).toHaveBeenCalledTimes(1);
    cleanup();
    await jest.advanceTimersByTimeAsync(5000);
    expect(fetcher).toHaveBeenCalledTimes(1);

    const again = board.register('x');
    board.refresh();
    await jest.advanceTimersByTimeAsync(10);
    expect(fetcher).toHaveBeenCalledTimes(2);
    again();
  });

  it('marks rows as known after an error so cells stop spinning', async () => {
    const fetcher = jest.fn(async () => {
      throw new Error('down');
    });
    const board = new StatusBoard('api::page.page', fetcher, 1000);
    const cleanup = board.register('x');
    await jest.advanceTimersByTimeAsync(100);
    expect(board.failed).toBe(true);
    expect(board.rowsFor('x')).toEqual([]);
    cleanup();
  });
});
