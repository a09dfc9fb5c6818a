import { LEASE_UID } from '../content-types';
import type * as Contract from '../../../shared/contracts/backfills';
import type { Origin } from '../credits';
import { createBackgroundLoop, createDispatcherLease } from '../utils';
import type { BackfillRow, BackfillRows } from './backfill-rows';
import type { BackfillDeps, Cursor } from './deps';
import { paceOf, roomIn } from './domain/pace';
import { labelOf, nextStatus, progressOf, type BackfillEvent } from './domain/status';

const PAGE = 50;
/** Entries passed in one pass at most, narrated ones included, so one pass never runs long. */
const PASS_MAX = 500;
const PACE_FRESH_MS = 60_000;

export async function cellsOf(deps: Pick<BackfillDeps, 'queue'>, ids: readonly number[]) {
  const byBackfill = new Map<number, Array<{ status: string; count: number; credits: number }>>();
  for (const cell of await deps.queue.reads.backfillCells(ids)) {
    if (!byBackfill.has(cell.backfill)) byBackfill.set(cell.backfill, []);
    byBackfill.get(cell.backfill)!.push(cell);
  }
  return byBackfill;
}

export async function move(rows: BackfillRows, row: BackfillRow, event: BackfillEvent): Promise<boolean> {
  const to = nextStatus(row.status, event);
  return to !== null && (await rows.setStatus(row.id, row.status, to));
}

/** Queues entries of one backfill while the queue has room; returns how many it queued. */
async function feed(
  { deps, rows, stopping }: { deps: BackfillDeps; rows: BackfillRows; stopping: () => boolean },
  row: BackfillRow,
  room: number,
  unsentCredits: number
): Promise<number> {
  let after: Cursor | null =
    row.cursorPublishedAt && row.cursorDocumentId ? { publishedAt: row.cursorPublishedAt, documentId: row.cursorDocumentId } : null;
  let fed = row.fed;
  let queued = 0;
  let passed = 0;
  const origin: Origin = { cause: 'backfill', causedBy: labelOf(row), backfill: row.id };
  while (queued < room && passed < PASS_MAX && !stopping()) {
    const page = await deps.archive(row.contentType, row.targetLocale, {
      publishedBefore: new Date(row.publishedBefore),
      after,
      limit: PAGE,
    });
    for (const document of page) {
      if (queued >= room) return queued;
      if (!document.narrated) {
        if (!(await deps.fits(row.contentType, unsentCredits + document.credits, new Date()))) {
          if (row.status !== 'held') await move(rows, row, 'held');
          return queued;
        }
        // Room in the budget again (a new month, a raised budget): it goes on.
        if (row.status === 'held') {
          if (!(await move(rows, row, 'room'))) return queued;
          row.status = 'running';
        }
        if (!(await rows.feeding(row.id))) return queued;
        const outcome = await deps.record(row.contentType, document.documentId, row.targetLocale, origin);
        if (outcome.queued) {
          queued += 1;
          unsentCredits += document.credits;
        }
        fed += 1;
      }
      passed += 1;
      after = { publishedAt: document.publishedAt, documentId: document.documentId };
      await rows.advance(row.id, after, fed);
    }
    if (page.length < PAGE) {
      await rows.markExhausted(row.id);
      return queued;
    }
  }
  return queued;
}

/**
 * The loop that feeds the queue, on one instance at a time (the `backfill` lease): the backfills
 * that may, oldest first, each up to the room the backlog leaves.
 */
export function createBackfillFeeder(deps: BackfillDeps, rows: BackfillRows) {
  const { strapi, config } = deps;
  const loop = createBackgroundLoop({
    log: strapi.log,
    what: 'the archive backfill',
    pass: () => pass(),
    nextDelayMs: () => config.intervalMs,
  });
  const lease = createDispatcherLease(strapi, LEASE_UID, loop.owner, config.leaseMs, 'backfill');
  let pace: { value: Contract.BackfillPace; at: number } | null = null;

  async function currentPace(): Promise<Contract.BackfillPace> {
    if (!pace || Date.now() - pace.at > PACE_FRESH_MS) {
      const generationSeconds = await deps.queue.reads.recentGenerationSeconds(50);
      pace = { value: paceOf({ maxInFlight: config.maxInFlight, generationSeconds, backlog: config.backlog }), at: Date.now() };
    }
    return pace.value;
  }

  async function pass() {
    const active = await rows.active();
    if (active.length === 0 || !(await lease.acquire())) return;
    const paceNow = await currentPace();
    const cells = await cellsOf(
      deps,
      active.map((row) => row.id)
    );
    let waiting = active.reduce((sum, row) => sum + progressOf(cells.get(row.id) ?? []).queued, 0);
    for (const row of active) {
      if (loop.isStopping()) return;
      const progress = progressOf(cells.get(row.id) ?? []);
      if (row.exhausted) {
        if (progress.queued === 0) await move(rows, row, 'finished');
        continue;
      }
      const room = roomIn(paceNow, waiting);
      if (room === 0) break;
      waiting += await feed({ deps, rows, stopping: loop.isStopping }, row, room, progress.unsentCredits);
    }
  }

  return {
    currentPace,
    wake: () => loop.wakeIn(0),
    start() {
      if (config.worker) loop.start(config.intervalMs);
    },
    async stop() {
      await loop.stop();
      await lease.release().catch(() => undefined);
    },
  };
}
