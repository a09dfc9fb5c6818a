import { NothingToStore } from '../../server/src/narration/media';
import { createStoreStep, type StoreStepDeps } from '../../server/src/narration/store-step';
import { transition, type NarrationEvent } from '../../server/src/narration/domain/states';
import type { MediaFileRef, NarrationRow } from '../../server/src/narration/jobs.repository';
import { narrationRow } from './narration-fixtures';

/**
 * The storing step's claim, with the real state machine behind a repository kept in memory: what
 * it does with the uploads an earlier store left on the row before it stores anything of its own.
 */

const leftover: MediaFileRef = { id: 41, url: '/uploads/narration-doc1-en-old.mp3' } as MediaFileRef;

function storeStepWith({
  leftoversRemovable,
  unlinkedRemovable = true,
  storeFails,
}: {
  leftoversRemovable: boolean;
  unlinkedRemovable?: boolean;
  /** What the store throws; without it, it is not expected to be reached. */
  storeFails?: Error;
}) {
  let row: NarrationRow = narrationRow({
    status: 'storing',
    pendingResult: { audioFile: 'https://media.test/a.mp3', srtFile: 'https://media.test/a.srt' },
    storeAttempts: 0,
  } as Partial<NarrationRow>);
  const applied: NarrationEvent['type'][] = [];
  const removed: number[][] = [];
  const unlinkedLookedFor: string[] = [];
  const stores: string[] = [];
  const repository = {
    readyToStore: async () => (row.status === 'storing' && !row.leaseOwner ? [row] : []),
    pendingUploadsOf: async () => [leftover],
    apply: async (current: NarrationRow, event: NarrationEvent) => {
      const result = transition(current, event);
      if (result.kind === 'ignore') return { applied: false as const, reason: result.reason };
      applied.push(event.type);
      row = { ...current, ...(result.patch as Partial<NarrationRow>) };
      return { applied: true as const, row, replaced: [] };
    },
  };
  const media = {
    remove: async (files: Array<MediaFileRef | null | undefined>) => {
      removed.push(files.map((file) => file!.id));
      return leftoversRemovable;
    },
    removeUnlinkedUploads: async (of: NarrationRow) => {
      unlinkedLookedFor.push(of.articleId);
      return unlinkedRemovable;
    },
    store: async () => {
      stores.push(row.articleId);
      throw storeFails ?? new Error('not reached in these tests');
    },
  };
  const at = new Date('2026-11-25T08:00:00Z');
  const deps = {
    strapi: { log: { info: () => undefined, warn: () => undefined, error: () => undefined } },
    config: { leaseMs: 60_000, maxAttempts: 3 },
    repository,
    media,
    owner: 'worker-1',
    now: () => at,
    isStopped: () => false,
    wake: () => undefined,
    settings: { get: async () => ({}) },
    content: {},
    voiceOverrides: {},
  } as unknown as StoreStepDeps;
  return { step: createStoreStep(deps), applied, removed, unlinkedLookedFor, stores, row: () => row, at };
}

describe("the storing step's claim and an earlier store's leftover uploads", () => {
  it('stores nothing on top of leftovers it could not remove: the row waits its backoff, the attempt counted', async () => {
    const { step, applied, removed, stores, row, at } = storeStepWith({ leftoversRemovable: false });
    await step.storeResults(at);
    expect(removed).toEqual([[41]]);
    expect(applied).toEqual(['storeClaimed', 'storeDeferred']);
    expect(stores).toEqual([]);
    expect(step.activeCount()).toBe(0);
    expect(row()).toMatchObject({ status: 'storing', leaseOwner: null, storeAttempts: 1, lastErrorCode: 'STORE_FAILED' });
    expect(new Date(row().nextAttemptAt as unknown as string).getTime()).toBeGreaterThan(at.getTime());
  });

  it('gives up like a download once the attempts are spent', async () => {
    const { step, applied, row, at } = storeStepWith({ leftoversRemovable: false });
    for (let attempt = 0; attempt < 3; attempt++) {
      await step.storeResults(at);
      // The backoff has passed.
      row().nextAttemptAt = null;
    }
    expect(applied.filter((type) => type === 'storeDeferred')).toHaveLength(3);
    expect(row().status).toBe('failed');
    expect(row().lastError).toMatch(/could not be removed yet.*Gave up after 3 download attempt/);
  });

  it('goes on to store once the leftovers are removed', async () => {
    const { step, applied, removed, unlinkedLookedFor, row, at } = storeStepWith({ leftoversRemovable: true });
    await step.storeResults(at);
    expect(removed[0]).toEqual([41]);
    expect(unlinkedLookedFor).toEqual(['doc1-en']);
    expect(applied[0]).toBe('storeClaimed');
    expect(applied).not.toContain('storeDeferred');
    expect(row().leaseOwner).toBe('worker-1');
  });

  it('stores nothing while uploads whose link was cut off may still be there: the row waits its backoff', async () => {
    const { step, applied, unlinkedLookedFor, stores, row, at } = storeStepWith({ leftoversRemovable: true, unlinkedRemovable: false });
    await step.storeResults(at);
    expect(unlinkedLookedFor).toEqual(['doc1-en']);
    expect(applied).toEqual(['storeClaimed', 'storeDeferred']);
    expect(stores).toEqual([]);
    expect(row()).toMatchObject({ status: 'storing', leaseOwner: null, storeAttempts: 1 });
  });
});

describe('a store that fails', () => {
  async function storeOnce(storeFails: Error) {
    const setup = storeStepWith({ leftoversRemovable: true, storeFails });
    await setup.step.storeResults(setup.at);
    await setup.step.stop();
    return setup;
  }

  it('because the database or the storage went away is tried again after its backoff, the result kept', async () => {
    const { applied, stores, row, at } = await storeOnce(new Error('Connection lost: The server closed the connection.'));
    expect(stores).toEqual(['doc1-en']);
    expect(applied).toEqual(['storeClaimed', 'storeDeferred']);
    expect(row()).toMatchObject({ status: 'storing', leaseOwner: null, storeAttempts: 1, lastErrorCode: 'STORE_FAILED' });
    expect(row().lastError).toMatch(/could not be stored: Connection lost/);
    expect(row().pendingResult).not.toBeNull();
    expect(new Date(row().nextAttemptAt as unknown as string).getTime()).toBeGreaterThan(at.getTime());
  });

  it('because the upload plugin refused the file fails at once: another attempt would be refused alike', async () => {
    const refusal = new Error('narration-doc1-en.mp3 exceeds size limit of 1MB.');
    refusal.name = 'PayloadTooLargeError';
    const { applied, row } = await storeOnce(refusal);
    expect(applied).toEqual(['storeClaimed', 'storeFailed']);
    expect(row()).toMatchObject({ status: 'failed', lastErrorCode: 'STORE_FAILED' });
    expect(row().lastError).toMatch(/exceeds size limit/);
  });

  it('because the row holds no result fails at once: no later attempt would find one', async () => {
    const { applied, row } = await storeOnce(new NothingToStore('narration doc1-en has no pending result to store'));
    expect(applied).toEqual(['storeClaimed', 'storeFailed']);
    expect(row()).toMatchObject({ status: 'failed', lastErrorCode: 'STORE_FAILED' });
  });
});
