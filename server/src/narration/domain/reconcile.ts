import { publishedLater } from '../../queue';

/**
 * Reconciliation: which live entries of a narrated type to record again because recording them
 * after their publish may have failed (the database went away between Strapi's commit and the
 * plugin's write, or the process died there). Pure: the reconciler reads the rows and the
 * cursor, this decides, the reconciler records and saves the cursor.
 *
 * Every publish of a draft & publish type writes a new live row with a new, larger id (Strapi 5
 * deletes the old published row and inserts another), so a cursor on the id finds every publish
 * since the last pass with an index range scan on the primary key, however large the table. The
 * recording is idempotent (an unchanged version is "already narrated"), so a row seen twice costs
 * a read, never a charge.
 */

/** What the reconciler keeps per narrated type between passes (in the plugin store). */
export interface ReconcileCursor {
  /** Every live row with an id up to this one has been looked at. */
  afterId: number;
  /** When a pass last ran for this type (ISO): a plugin that was not running does not narrate what was published meanwhile. */
  passedAt: string;
}

export interface LiveRowStamp {
  id: number;
  documentId: string;
  locale: string | null;
  /** When the row was written live (ISO, or a Date from some database drivers). */
  publishedAt: string | Date;
}

export interface ReconcileTiming {
  now: Date;
  /**
   * How long after its publish a row is left alone: its own after-commit recording is still on
   * its way, and a transaction that took a smaller id may not have committed yet, so the cursor
   * must not pass it.
   */
  settleMs: number;
  /** The time between passes: a row published within it after the last pass was published while the plugin ran. */
  intervalMs: number;
  /**
   * Since when this process has run the plugin: a row published since then went live while the
   * plugin ran, however long its passes failed meanwhile (a database that refused its writes).
   */
  runningSince: Date;
}

export interface ReconcilePlan {
  /** Rows to record (idempotently) now. */
  record: LiveRowStamp[];
  /** Rows published while no instance ran the plugin (it was disabled or not installed): never narrated by surprise. */
  skipped: LiveRowStamp[];
  /** The cursor's new id: past every row recorded or skipped, never past an unsettled one. */
  afterId: number;
  /** True when the batch was full and all settled: the rows after it can be read in this pass. */
  more: boolean;
}

const time = (value: string | Date) => (value instanceof Date ? value.getTime() : Date.parse(value));

/** The cursor of a type seen for the first time: after every row that exists now (no backfill, no surprise charge). */
export function firstCursor(maxLiveId: number | null, now: Date): ReconcileCursor {
  return { afterId: maxLiveId ?? 0, passedAt: now.toISOString() };
}

/**
 * Plans one batch of rows (ordered by id, all with ids above `afterId`). A row is recorded when it
 * is settled and was published while the plugin was running: no later than one interval (plus the
 * settle time) after the previous pass (`cursor.passedAt`, the same for every batch of a pass).
 * Rows published later than that went live during a gap in which no instance ran a pass (the
 * plugin was disabled, or Strapi ran without it), and are skipped; unless this process was
 * running the plugin then (`runningSince`): a pass that failed is no proof that nothing ran. The
 * cursor stops before the first unsettled row.
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
 * Whether a live version found by the reconciliation still needs recording. Not when its publish,
 * or a later one, was recorded (`livePublishedAt`): the version is then narrated as it was
 * described at that publish, and settings changed since (a voice, the narration mode) apply from
 * the next publish, never by a surprise charge from this pass. Otherwise (and for rows recorded
 * before that column existed): when its document has no narration, or the narration is of another
 * version, or it was cancelled (the document was unpublished, and is live again). A narration of
 * this very version that failed is left failed: a retry is the editor's to ask for (it may be
 * paid), never the reconciliation's.
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
