import { VisibleDocuments, rowsOfDocument, statusesPollMs } from '../../../admin/src/api/listStatus';
import type { NarrationStatus, NarrationView } from '../../../admin/src/api/types';
import { queueState } from './fixtures';
import { adminStore, closeAdminStores, type SentRequest } from './api-store';

const QUEUE = queueState();
const row = (documentId: string, status: NarrationStatus, locale: string | null = null) =>
  ({ documentId, status, locale }) as NarrationView;
const TYPE = 'api::article.article';
const STATUSES = '/speech/narrations/statuses';

/** A statuses server over a map of document -> status. */
function statusesServer(statuses: Map<string, NarrationStatus>) {
  return (request: SentRequest) => {
    if (request.url === STATUSES) {
      const { documentIds } = request.data as { documentIds: string[] };
      return { data: documentIds.filter((id) => statuses.has(id)).map((id) => row(id, statuses.get(id)!)), queue: QUEUE };
    }
    if (request.url === '/speech/narrations/narrate-many') return { results: [], queued: 1 };
    throw new Error(`unexpected ${request.url}`);
  };
}

/**
 * What one list cell does with the query cache (hooks.ts, useListStatus): subscribes with the
 * page's documents, fresh on mount, and re-reads its poll interval from the answer on each render.
 */
function mountCell(stack: ReturnType<typeof adminStore>, documentIds: string[], pollMs = 1000) {
  const args = { contentType: TYPE, documentIds };
  const endpoint = stack.api.endpoints.getSpeechListStatuses;
  const subscription = stack.store.dispatch(endpoint.initiate(args, { forceRefetch: true, subscriptionOptions: { pollingInterval: 0 } }));
  const read = () => endpoint.select(args)(stack.store.getState() as never);
  return {
    read,
    render() {
      const state = read();
      subscription.updateSubscriptionOptions({ pollingInterval: statusesPollMs(state.data, state.isError, pollMs) });
    },
    unmount: () => subscription.unsubscribe(),
  };
}

afterEach(closeAdminStores);

describe('list view statuses', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('publishes the documents of a page once its cells have mounted, in mount order', async () => {
    const page = new VisibleDocuments(60);
    const listener = jest.fn();
    page.subscribe(listener);
    const cleanups = ['a', 'b', 'c'].map((id) => page.register(id));
    expect(page.getDocumentIds()).toEqual([]);
    await jest.advanceTimersByTimeAsync(100);
    expect(page.getDocumentIds()).toEqual(['a', 'b', 'c']);
    expect(listener).toHaveBeenCalledTimes(1);
    // The same list object until it changes (cells re-render with the same query key).
    const published = page.getDocumentIds();
    const again = page.register('a');
    await jest.advanceTimersByTimeAsync(100);
    expect(page.getDocumentIds()).toBe(published);
    again();
    cleanups.forEach((cleanup) => cleanup());
  });

  it('batches the rows of a page into one request and polls while one is in progress', async () => {
    const statuses = new Map<string, NarrationStatus>([
      ['a', 'queued'],
      ['b', 'completed'],
    ]);
    const stack = adminStore(statusesServer(statuses));
    const page = new VisibleDocuments(60);
    ['a', 'b', 'c'].forEach((id) => page.register(id));
    await jest.advanceTimersByTimeAsync(100);

    const cells = ['a', 'b', 'c'].map(() => mountCell(stack, page.getDocumentIds()));
    await jest.advanceTimersByTimeAsync(10);
    expect(stack.sent(STATUSES)).toEqual([
      { url: STATUSES, method: 'POST', data: { contentType: TYPE, documentIds: ['a', 'b', 'c'] }, params: undefined },
    ]);
    const answer = cells[0].read();
    expect(rowsOfDocument(answer.data, answer.isError, 'a')?.[0].status).toBe('queued');
    expect(rowsOfDocument(answer.data, answer.isError, 'c')).toEqual([]);
    // A document the answer does not cover is still loading.
    expect(rowsOfDocument(answer.data, answer.isError, 'd')).toBeUndefined();

    cells.forEach((cell) => cell.render());
    statuses.set('a', 'completed');
    await jest.advanceTimersByTimeAsync(1000);
    expect(stack.sent(STATUSES)).toHaveLength(2);
    expect(rowsOfDocument(cells[0].read().data, false, 'a')?.[0].status).toBe('completed');

    // Nothing in progress any more: no further polling.
    cells.forEach((cell) => cell.render());
    await jest.advanceTimersByTimeAsync(5000);
    expect(stack.sent(STATUSES)).toHaveLength(2);
    cells.forEach((cell) => cell.unmount());
  });

  it('stops polling when the page is left, forgets the page at once, and a bulk narration asks again at once', async () => {
    const stack = adminStore(statusesServer(new Map([['x', 'awaiting_callback']])));
    const page = new VisibleDocuments(60);
    const leave = page.register('x');
    await jest.advanceTimersByTimeAsync(100);
    const cell = mountCell(stack, page.getDocumentIds());
    await jest.advanceTimersByTimeAsync(10);
    cell.render();
    expect(stack.sent(STATUSES)).toHaveLength(1);

    leave();
    cell.unmount();
    // No timer: the next page never starts from this one's list.
    expect(page.getDocumentIds()).toEqual([]);
    await jest.advanceTimersByTimeAsync(5000);
    expect(stack.sent(STATUSES)).toHaveLength(1);

    page.register('x');
    await jest.advanceTimersByTimeAsync(100);
    const back = mountCell(stack, page.getDocumentIds());
    await jest.advanceTimersByTimeAsync(10);
    expect(stack.sent(STATUSES)).toHaveLength(2);
    await stack.store.dispatch(stack.api.endpoints.speechNarrateMany.initiate({ contentType: TYPE, documentIds: ['x'], locale: 'en' }));
    await jest.advanceTimersByTimeAsync(10);
    expect(stack.sent(STATUSES)).toHaveLength(3);
    back.unmount();
  });

  it('marks rows as known after an error so cells stop spinning, and stops polling', async () => {
    const stack = adminStore(() => {
      throw { error: { name: 'ApplicationError', status: 500, message: 'down', details: {} } };
    });
    const cell = mountCell(stack, ['x']);
    await jest.advanceTimersByTimeAsync(10);
    const state = cell.read();
    expect(state.isError).toBe(true);
    expect(rowsOfDocument(state.data, state.isError, 'x')).toEqual([]);
    expect(statusesPollMs(state.data, state.isError)).toBe(0);
    cell.unmount();
  });
});
