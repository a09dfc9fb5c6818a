import type { Core } from '@strapi/strapi';
import { createBackgroundLoop } from '../utils';
import { firstCursor, planReconcile, type LiveRowStamp, type ReconcileCursor } from './domain/reconcile';
import type { PendingRecordings } from './pending-recordings';

/** Records live entries whose publish Strapi committed but whose after-commit recording was lost. */

export interface ReconcilerDeps {
  strapi: Core.Strapi;
  intervalMs: number;
  settleMs: number;
  narratedTypes: () => Promise<string[]>;
  isLocalized: (uid: string) => boolean;
  /** Records the live version of a document (idempotent: an unchanged version is not recorded twice). */
  record: (uid: string, documentId: string, locale: string | null) => Promise<{ queued: boolean }>;
  pending: Pick<PendingRecordings, 'olderThan' | 'remove'>;
  now?: () => Date;
}

const STORE_KEY = 'reconcile';
const BATCH = 200;
/** A backlog larger than this waits for the next pass, so one pass never holds the database for long. */
const MAX_BATCHES_PER_PASS = 10;

export function createReconciler(deps: ReconcilerDeps) {
  const { strapi, intervalMs, settleMs } = deps;
  const now = deps.now ?? (() => new Date());
  const store = () => strapi.store({ type: 'plugin', name: 'speech' });
  let runningSince = now();

  async function maxId(uid: string): Promise<number | null> {
    const row = (await strapi.db.query(uid).findOne({ select: ['id'], orderBy: { id: 'desc' } })) as { id: number } | null;
    return row?.id ?? null;
  }

  /** An index range scan on the primary key. */
  async function liveRowsAfter(uid: string, afterId: number): Promise<LiveRowStamp[]> {
    const localized = deps.isLocalized(uid);
    const rows = (await strapi.db.query(uid).findMany({
      select: ['id', 'documentId', 'publishedAt', ...(localized ? ['locale'] : [])],
      where: { id: { $gt: afterId }, publishedAt: { $notNull: true } },
      orderBy: { id: 'asc' },
      limit: BATCH,
    })) as Array<Omit<LiveRowStamp, 'locale'> & { locale?: string | null }>;
    return rows.map((row) => ({ ...row, locale: localized ? (row.locale ?? null) : null }));
  }

  async function reconcileType(uid: string, cursor: ReconcileCursor, at: Date): Promise<{ cursor: ReconcileCursor; recorded: number }> {
    let afterId = cursor.afterId;
    let recorded = 0;
    for (let batch = 0; batch < MAX_BATCHES_PER_PASS; batch += 1) {
      const plan = planReconcile({ ...cursor, afterId }, await liveRowsAfter(uid, afterId), BATCH, {
        now: at,
        settleMs,
        intervalMs,
        runningSince,
      });
      for (const row of plan.record) {
        if ((await deps.record(uid, row.documentId, row.locale)).queued) recorded += 1;
      }
      afterId = plan.afterId;
      if (!plan.more) break;
    }
    return { cursor: { afterId, passedAt: at.toISOString() }, recorded };
  }

  /** Saves whose note outlived their own recording (lost, or still running when it is this old). */
  async function recordPendingSaves(at: Date, narrated: Set<string>): Promise<number> {
    let recorded = 0;
    for (const note of await deps.pending.olderThan(new Date(at.getTime() - settleMs), BATCH)) {
      if (narrated.has(note.contentType) && (await deps.record(note.contentType, note.targetDocumentId, note.targetLocale)).queued)
        recorded += 1;
      await deps.pending.remove(note.id);
    }
    return recorded;
  }

  async function pass() {
    const at = now();
    const narratedTypes = await deps.narratedTypes();
    const saved = ((await store().get({ key: STORE_KEY })) ?? {}) as Record<string, ReconcileCursor>;
    // Types no longer narrated lose their cursor: narrated again later, they start from that moment.
    const cursors: Record<string, ReconcileCursor> = {};
    let recorded = await recordPendingSaves(at, new Set(narratedTypes));
    for (const uid of narratedTypes) {
      const cursor = saved[uid];
      if (!cursor) {
        cursors[uid] = firstCursor(await maxId(uid), at);
        continue;
      }
      const result = await reconcileType(uid, cursor, at);
      cursors[uid] = result.cursor;
      recorded += result.recorded;
    }
    await store().set({ key: STORE_KEY, value: cursors });
    if (recorded > 0) {
      strapi.log.warn(`[speech] reconciliation recorded ${recorded} published version(s) whose narration had not been recorded`);
    }
  }

  const loop = createBackgroundLoop({ log: strapi.log, what: 'the narration reconciliation', pass, nextDelayMs: () => intervalMs });

  return {
    start() {
      if (!loop.isStopped()) return;
      runningSince = now();
      loop.start(0);
    },
    runOnce: loop.runOnce,
    stop: loop.stop,
  };
}
