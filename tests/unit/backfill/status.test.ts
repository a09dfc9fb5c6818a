import { BACKFILL_STATUSES } from '../../../shared/contracts/backfills';
import { labelOf, nextStatus, progressOf, type BackfillEvent } from '../../../server/src/backfill/domain/status';

const EVENTS: BackfillEvent[] = ['pause', 'resume', 'cancel', 'held', 'room', 'finished'];

describe("a backfill's status", () => {
  it('moves only where the table says', () => {
    const moves = Object.fromEntries(
      BACKFILL_STATUSES.map((status) => [
        status,
        Object.fromEntries(EVENTS.flatMap((event) => (nextStatus(status, event) ? [[event, nextStatus(status, event)]] : []))),
      ])
    );
    expect(moves).toEqual({
      running: { pause: 'paused', cancel: 'cancelled', held: 'held', finished: 'done' },
      held: { pause: 'paused', cancel: 'cancelled', room: 'running', finished: 'done' },
      paused: { resume: 'running', cancel: 'cancelled' },
      done: {},
      cancelled: {},
    });
  });

  it('counts its rows: stored, failed, and waiting (those not charged yet with their credits)', () => {
    expect(
      progressOf([
        { status: 'completed', count: 7, credits: 70 },
        { status: 'failed', count: 1, credits: 10 },
        { status: 'cancelled', count: 2, credits: 20 },
        { status: 'queued', count: 3, credits: 33 },
        { status: 'submitting', count: 1, credits: 11 },
        { status: 'awaiting_callback', count: 2, credits: 25 },
        { status: 'storing', count: 1, credits: 9 },
      ])
    ).toEqual({ done: 7, failed: 1, queued: 7, unsentCredits: 44 });
  });

  it('names its narrations in the ledger by its id and who started it, within a column', () => {
    expect(labelOf({ id: 3, causedBy: 'Ann Editor (#1)' })).toBe('backfill #3, by Ann Editor (#1)');
    expect(labelOf({ id: 4, causedBy: null })).toBe('backfill #4');
    expect(labelOf({ id: 5, causedBy: 'x'.repeat(300) })).toHaveLength(255);
  });
});
