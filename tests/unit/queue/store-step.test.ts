import { NothingToStore } from '../../../server/src/queue/media/media';
import { createStoreStep, type StoreStepDeps } from '../../../server/src/queue/worker/store-step';
import { transition, type NarrationEvent } from '../../../server/src/queue/domain/states';
import type { MediaFileRef, NarrationRow } from '../../../server/src/queue/rows/narration-rows';
import { narrationRow } from './fixtures';

/**
 * The storing step's claim, with the real state machine behind a repository kept in memory: what
 * it does with the uploads an earlier store left on the row before it stores anything of its own.
 */

const leftover: MediaFileRef = { id: 41, url: '/uploads/narration-doc1-en-old.mp3' } as MediaFileRef;

/** The storing step's dependencies around a repository and a media store of the test's, as worker-1 with leases of a minute. */
function storeStepDeps(repository: object, media: object, now: () => Date): StoreStepDeps {
  return {
    strapi: { log: { info: () => undefined, warn: () => undefined, error: () => undefined } },
    config: { leaseMs: 60_000, maxAttempts: 3 },
    repository,
    media,
    parts: { remove: async () => undefined },
    owner: 'worker-1',
    now,
    isStopped: () => false,
    wake: () => undefined,
    describeLive: async () => null,
  } as unknown as StoreStepDeps;
}

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
  const deps = storeStepDeps(repository, media, () => at);
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
    expect(row().leaseOwner).toMatch(/^worker-1\//);
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

describe('two stores of one row in one process', () => {
  /**
   * A repository in memory whose writes land as the database's compare-and-set does: the status
   * and the guard are checked against the row as it is now, not against the writer's copy.
   */
  function sharedRow() {
    let row: NarrationRow = narrationRow({
      status: 'storing',
      pendingResult: { audioFile: 'https://media.test/a.mp3', srtFile: 'https://media.test/a.srt' },
      storeAttempts: 0,
    } as Partial<NarrationRow>);
    // The result is of the version narrated now: storing it completes the row.
    row = { ...row, submittedFingerprint: row.fingerprint };
    const pending: MediaFileRef[] = [];
    const removed: number[] = [];
    const repository = {
      readyToStore: async () => (row.status === 'storing' && !row.leaseOwner ? [row] : []),
      pendingUploadsOf: async () => [...pending],
      apply: async (current: NarrationRow, event: NarrationEvent) => {
        const result = transition(current, event);
        if (result.kind === 'ignore') return { applied: false as const, reason: result.reason };
        const { guard } = result;
        const lost =
          !result.from.includes(row.status) ||
          (guard.leaseOwner !== undefined && (row.leaseOwner ?? null) !== guard.leaseOwner) ||
          (guard.leaseExpiredBefore !== undefined && !(Date.parse(String(row.leaseExpiresAt)) < guard.leaseExpiredBefore.getTime()));
        if (lost) return { applied: false as const, reason: 'the row changed under us' };
        // The files a patch links, by their ids (what the test reads back is the audio's).
        const linked = Object.fromEntries(
          ['audio', 'subtitles', 'subtitlesVtt'].flatMap((field) => {
            const id = (result.patch as Record<string, unknown>)[field];
            return id === undefined ? [] : [[field, { id }]];
          })
        );
        row = { ...row, ...result.patch, ...linked } as unknown as NarrationRow;
        return { applied: true as const, row: { ...current, ...row }, replaced: [] };
      },
    };
    /** Each store's uploads, made when the test says (they join the row's pending uploads), then its end. */
    const uploads: Array<{ make: (first: number) => void; finish: () => void }> = [];
    const media = {
      remove: async (files: Array<MediaFileRef | null | undefined>) => {
        for (const file of files) if (file) removed.push(file.id);
        return true;
      },
      removeUnlinkedUploads: async () => true,
      store: () =>
        new Promise((resolve) => {
          let files: MediaFileRef[] = [];
          uploads.push({
            make: (first) => {
              files = [first, first + 1, first + 2].map((id) => ({ id, url: `/uploads/${id}` }) as MediaFileRef);
              pending.push(...files);
            },
            finish: () =>
              resolve({ audio: files[0], subtitles: files[1], subtitlesVtt: files[2], durationSeconds: 3, audioBytes: 1000, cues: [] }),
          });
        }),
    };
    let at = new Date('2026-11-25T08:00:00Z');
    const deps = storeStepDeps(repository, media, () => at);
    return {
      step: createStoreStep(deps),
      repository,
      uploads,
      removed,
      row: () => row,
      advance: (ms: number) => (at = new Date(at.getTime() + ms)),
      now: () => at,
    };
  }

  it('never links the files of a store whose lease ran out and was claimed again by the same worker: the second claim removed them', async () => {
    const { step, repository, uploads, removed, row, advance, now } = sharedRow();
    await step.storeResults(now());
    const firstOwner = row().leaseOwner;
    expect(firstOwner).toMatch(/^worker-1/);
    // The first store's lease runs out (the database was away, its renewals failed) and is recovered.
    advance(61_000);
    expect((await repository.apply(row(), { type: 'leaseExpired', now: now() })).applied).toBe(true);
    // The same worker claims the row again: the first store's uploads, pending on the row, are removed first.
    uploads[0].make(101);
    await step.storeResults(now());
    expect(removed).toEqual([101, 102, 103]);
    expect(row().leaseOwner).toMatch(/^worker-1/);
    expect(row().leaseOwner).not.toBe(firstOwner);
    // Both stores reach their final write, the first one first.
    uploads[1].make(201);
    uploads[0].finish();
    await new Promise((resolve) => setImmediate(resolve));
    uploads[1].finish();
    await step.stop();
    await new Promise((resolve) => setImmediate(resolve));
    expect(row().status).toBe('completed');
    expect((row().audio as unknown as MediaFileRef).id).toBe(201);
    expect(removed).not.toContain(201);
  });
});
