import type { BackfillStatus } from '../../../../shared/contracts/backfills';

/** Who caused its narrations, as the ledger's entries name it (and are summed by). */
export const labelOf = (row: { id: number; causedBy: string | null }) =>
  `backfill #${row.id}${row.causedBy ? `, by ${row.causedBy}` : ''}`.slice(0, 255);

/** What moves a backfill: the operator's pause, resume and cancel; the budget's hold and room; its last narration ending. */
export type BackfillEvent = 'pause' | 'resume' | 'cancel' | 'held' | 'room' | 'finished';

const NEXT: Record<BackfillStatus, Partial<Record<BackfillEvent, BackfillStatus>>> = {
  running: { pause: 'paused', cancel: 'cancelled', held: 'held', finished: 'done' },
  held: { pause: 'paused', cancel: 'cancelled', room: 'running', finished: 'done' },
  paused: { resume: 'running', cancel: 'cancelled' },
  done: {},
  cancelled: {},
};

/** The status after the event, or null when the event does not apply (a finished backfill is not resumed). */
export const nextStatus = (status: BackfillStatus, event: BackfillEvent): BackfillStatus | null => NEXT[status][event] ?? null;

/** Queued on the backfill's behalf: statuses of the queue that end in a stored narration, a failure or a cancel. */
export function progressOf(cells: ReadonlyArray<{ status: string; count: number; credits: number }>) {
  const progress = { done: 0, failed: 0, queued: 0, unsentCredits: 0 };
  for (const cell of cells) {
    if (cell.status === 'completed') progress.done += cell.count;
    else if (cell.status === 'failed') progress.failed += cell.count;
    else if (cell.status !== 'cancelled') {
      progress.queued += cell.count;
      // Not charged yet (the ledger's entry is written as the service accepts it): the budget
      // counts them before the next one is queued.
      if (cell.status === 'queued' || cell.status === 'submitting') progress.unsentCredits += cell.credits;
    }
  }
  return progress;
}
