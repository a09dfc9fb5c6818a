import type { Core } from '@strapi/strapi';
import { VERIFICATION_UID } from '../content-types';
import { CHECK_VIEW_COLUMNS, OPEN_CHECK_STATUSES, type CheckPatch, type CheckRow, type CheckViewRow } from './domain/check';

/**
 * The only code that writes check rows. A row is worked on under its lease, taken by a
 * conditional update (`WHERE id = ? AND status IN (open) AND lease free`), so a restart finds
 * every check where it was and two instances never submit one audio twice.
 */

export type NewCheck = Pick<CheckRow, 'narrationId' | 'articleId' | 'audioKey' | 'partKey' | 'language' | 'text'>;

const leaseFree = (now: Date) => ({ $or: [{ leaseOwner: null }, { leaseExpiresAt: null }, { leaseExpiresAt: { $lt: now } }] });
const due = (now: Date) => ({ $or: [{ nextAttemptAt: null }, { nextAttemptAt: { $lte: now } }] });

/** A narration's checks, the due ones, and the month's counts. */
function checkReads(strapi: Core.Strapi) {
  const query = () => strapi.db.query(VERIFICATION_UID);
  const ofNarrations = async (narrationIds: readonly number[], select?: string[]) =>
    narrationIds.length === 0
      ? []
      : query().findMany({
          where: { narrationId: { $in: [...narrationIds] }, replaced: false },
          ...(select ? { select } : {}),
          orderBy: { id: 'asc' },
        });

  return {
    /** The checks of these narrations' audio (not those of audio a later store replaced). */
    forNarrations: (narrationIds: readonly number[]) => ofNarrations(narrationIds) as Promise<CheckRow[]>,
    /** As forNarrations, only the columns the admin's views read (no text). */
    viewsOf: (narrationIds: readonly number[]) => ofNarrations(narrationIds, [...CHECK_VIEW_COLUMNS]) as Promise<CheckViewRow[]>,
    /** Every check of a narration kept, of replaced audio too, oldest first: its versions' checks. */
    async history(narrationId: number): Promise<Array<Pick<CheckRow, 'status' | 'wordAccuracy'> & { createdAt: string }>> {
      return (await query().findMany({
        where: { narrationId },
        select: ['status', 'wordAccuracy', 'createdAt'],
        orderBy: { id: 'asc' },
      })) as Array<Pick<CheckRow, 'status' | 'wordAccuracy'> & { createdAt: string }>;
    },
    /** Checks ended since `since`, by outcome, and the checks under way now (the usage page). */
    async counts(since: Date): Promise<{ done: number; verified: number; mismatches: number; failed: number; underWay: number }> {
      const ended = (status: string) => query().count({ where: { status, completedAt: { $gte: since } } });
      const [verified, mismatches, failed, underWay] = await Promise.all([
        ended('verified'),
        ended('mismatch'),
        ended('failed'),
        query().count({ where: { status: { $in: [...OPEN_CHECK_STATUSES] } } }),
      ]);
      return { done: verified + mismatches + failed, verified, mismatches, failed, underWay };
    },

    async due(now: Date, limit: number): Promise<CheckRow[]> {
      return (await query().findMany({
        where: { status: { $in: [...OPEN_CHECK_STATUSES] }, $and: [due(now), leaseFree(now)] },
        orderBy: [{ nextAttemptAt: 'asc' }, { id: 'asc' }],
        limit,
      })) as CheckRow[];
    },

    /** The earliest time an open check is due; null when none is open. */
    async nextDueAt(): Promise<Date | null> {
      const [row] = (await query().findMany({
        where: { status: { $in: [...OPEN_CHECK_STATUSES] } },
        orderBy: [{ nextAttemptAt: 'asc' }],
        select: ['nextAttemptAt'],
        limit: 1,
      })) as Array<Pick<CheckRow, 'nextAttemptAt'>>;
      if (!row) return null;
      return row.nextAttemptAt ? new Date(row.nextAttemptAt) : new Date(0);
    },
  };
}

/** A check made, claimed, ended, retired or removed. */
function checkWrites(strapi: Core.Strapi) {
  const query = () => strapi.db.query(VERIFICATION_UID);

  return {
    async create(check: NewCheck, now: Date): Promise<void> {
      await query().create({ data: { ...check, status: 'pending', attempts: 0, nextAttemptAt: now, regenerated: false, replaced: false } });
    },

    /**
     * A narration's checks of audio it no longer has (a new store, a part an edit replaced): those
     * under way are dropped, those that ended are kept as replaced (the month's counts read them).
     */
    async retireOtherThan(narrationId: number, audioKeys: readonly string[]): Promise<void> {
      const others = { narrationId, audioKey: { $notIn: [...audioKeys] } };
      await query().deleteMany({ where: { ...others, status: { $in: [...OPEN_CHECK_STATUSES] } } });
      await query().updateMany({ where: { ...others, replaced: false }, data: { replaced: true } });
    },

    /** Ended checks of audio taken again under the same key (a part regenerated after a mismatch): kept as replaced. */
    async retire(ids: readonly number[]): Promise<void> {
      if (ids.length === 0) return;
      await query().updateMany({ where: { id: { $in: [...ids] } }, data: { replaced: true } });
    },

    /** Their narrations are gone: their checks go, with the text sent and what was heard. */
    async removeForNarrations(narrationIds: readonly number[]): Promise<void> {
      if (narrationIds.length) await query().deleteMany({ where: { narrationId: { $in: [...narrationIds] } } });
    },

    /** Checks that ended before `before` (past every window the usage page reads) go. */
    async pruneEnded(before: Date): Promise<void> {
      await query().deleteMany({ where: { status: { $notIn: [...OPEN_CHECK_STATUSES] }, completedAt: { $lt: before } } });
    },

    async remove(id: number): Promise<void> {
      await query().delete({ where: { id } });
    },

    async claim(id: number, owner: string, leaseMs: number, now: Date): Promise<boolean> {
      const { count } = await query().updateMany({
        where: { id, status: { $in: [...OPEN_CHECK_STATUSES] }, ...leaseFree(now) },
        data: { leaseOwner: owner, leaseExpiresAt: new Date(now.getTime() + leaseMs) },
      });
      return count === 1;
    },

    /** Writes a step's outcome and lets the row go; false when the lease was lost (the row removed or taken over). */
    async finish(id: number, owner: string, patch: CheckPatch): Promise<boolean> {
      const { count } = await query().updateMany({
        where: { id, leaseOwner: owner },
        data: { ...patch, leaseOwner: null, leaseExpiresAt: null },
      });
      return count === 1;
    },

    /** The check's mismatch asked for a regenerate (once: never again for this audio). */
    async markRegenerated(id: number): Promise<void> {
      await query().update({ where: { id }, data: { regenerated: true } });
    },

    async releaseLeases(owner: string): Promise<void> {
      await query().updateMany({ where: { leaseOwner: owner }, data: { leaseOwner: null, leaseExpiresAt: null } });
    },
  };
}

export function createCheckRows(strapi: Core.Strapi) {
  return { ...checkReads(strapi), ...checkWrites(strapi) };
}

export type CheckRows = ReturnType<typeof createCheckRows>;
