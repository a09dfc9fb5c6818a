import { publishedLater } from '../../queue';

/**
 * Records again live entries whose recording after publish may have been lost. Each publish is a new
 * live row with a larger id (Strapi 5), so an id cursor finds every publish since the last pass by a
 * primary-key range scan; recording is idempotent, so a row seen twice costs a read, never a charge.
 */

export interface ReconcileCursor {
  afterId: number;
  /** A plugin that was not running does not narrate what was published meanwhile. */
  passedAt: string;
}

export interface LiveRowStamp {
  id: number;
  documentId: string;
  locale: string | null;
  publishedAt: string | Date;
}

export interface ReconcileTiming {
  now: Date;
  /** Its own after-commit recording is on its way, and a smaller id may not have committed: the cursor must not pass it. */
  settleMs: number;
  intervalMs: number;
  /** A row published since then went live while the plugin ran, however long its passes failed. */
  runningSince: Date;
}

export interface ReconcilePlan {
  record: LiveRowStamp[];
  /** Published while no instance ran the plugin: never narrated by surprise. */
  skipped: LiveRowStamp[];
  afterId: number;
  more: boolean;
}

const time = (value: string | Date) => (value instanceof Date ? value.getTime() : Date.parse(value));

/** After every row that exists now: no backfill, no surprise charge. */
export function firstCursor(maxLiveId: number | null, now: Date): ReconcileCursor {
  return { afterId: maxLiveId ?? 0, passedAt: now.toISOString() };
}

/**
 * A settled row is recorded when published no later than one interval (plus settle) after the last
 * pass, or while this process ran the plugin: later ones went live in a gap and are skipped.
 */
export function planReconcile(
  cursor: ReconcileCursor,
  rows: readonly LiveRowStamp[],
  batchSize: number,
  timing: ReconcileTiming
): ReconcilePlan {
  const settledBefore = timing.now.getTime() - timing.settleMs;
  const aliveUntil = time(cursor.passedAt) + timing.intervalMs + timing.settleMs;
  const ranSince = timing.runningSince.getTime();
  const record: LiveRowStamp[] = [];
  const skipped: LiveRowStamp[] = [];
  let afterId = cursor.afterId;
  let unsettled = false;
  for (const row of rows) {
    const publishedAt = time(row.publishedAt);
    if (!(publishedAt <= settledBefore)) {
      unsettled = true;
      break;
    }
    (publishedAt <= aliveUntil || publishedAt >= ranSince ? record : skipped).push(row);
    afterId = Math.max(afterId, row.id);
  }
  return { record, skipped, afterId, more: !unsettled && rows.length >= batchSize };
}

/**
 * Not when its publish (or a later one) was recorded: settings changed since apply from the next
 * publish, never by surprise. A failed narration of this version stays failed: a paid retry is the editor's.
 */
export function versionUnrecorded(
  existing: { status: string; fingerprint: string | null; livePublishedAt?: string | Date | null } | null,
  version: { fingerprint: string; livePublishedAt: string | null }
): boolean {
  if (!existing) return true;
  if (existing.livePublishedAt && version.livePublishedAt && !publishedLater(version.livePublishedAt, existing.livePublishedAt))
    return false;
  return existing.fingerprint !== version.fingerprint || existing.status === 'cancelled';
}
