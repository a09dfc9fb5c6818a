import type { Core } from '@strapi/strapi';
import { LEASE_UID } from '../../content-types';

/**
 * One instance at a time submits narrations. Claims of single narrations are already atomic, but
 * `maxInFlight` is a count across the whole account: two instances each seeing two narrations in flight
 * would both submit a third. Holding this lease while counting and submitting keeps the count
 * exact; it expires, so a crashed holder is replaced after `leaseMs`.
 *
 * The lease is one row, created by whichever instance first has work. `unique` on a Strapi
 * attribute is checked by a query before the insert, not by the database, so two instances that
 * find no row at the same moment both insert one. Every instance therefore takes the row with the
 * lowest id as the lease (and removes the others): with two rows and an update over both, each
 * instance would see two rows changed, never one, and nobody would ever dispatch again.
 */

/** The subset of Strapi's query engine the lease uses (so a unit test can give it a table). */
export interface LeaseQuery {
  findMany(params: {
    where: Record<string, unknown>;
    orderBy?: Record<string, 'asc' | 'desc'>;
    select?: string[];
  }): Promise<Array<{ id: number }>>;
  updateMany(params: { where: Record<string, unknown>; data: Record<string, unknown> }): Promise<{ count: number }>;
  deleteMany(params: { where: Record<string, unknown> }): Promise<{ count: number }>;
}

/** `name`: the lease's row; the narration queue's is `dispatcher`, another worker holds one of its own. */
export function createDispatcherLease(strapi: Core.Strapi, owner: string, leaseMs: number, name = 'dispatcher') {
  return createLease(
    {
      query: () => strapi.db.query(LEASE_UID) as unknown as LeaseQuery,
      // The query engine gives the row its documentId; the Document Service would also announce an
      // internal row as an `entry.create` event (see queue/rows/narration-rows.ts).
      createRow: async (data) => {
        await strapi.db.query(LEASE_UID).create({ data: { ...data, publishedAt: new Date() } });
      },
    },
    owner,
    leaseMs,
    name
  );
}

export function createLease(
  deps: { query: () => LeaseQuery; createRow: (data: Record<string, unknown>) => Promise<void> },
  owner: string,
  leaseMs: number,
  name = 'dispatcher'
) {
  const { query } = deps;

  /** The id of the lease row, creating it when there is none and dropping any duplicate. */
  async function leaseRowId(): Promise<number> {
    let rows = await query().findMany({ where: { name }, orderBy: { id: 'asc' }, select: ['id'] });
    if (rows.length === 0) {
      // Another instance may insert at the same moment (the uniqueness check is not atomic): both
      // rows then exist, and the lowest id wins below.
      await deps.createRow({ name, owner: null, expiresAt: null }).catch(() => undefined);
      rows = await query().findMany({ where: { name }, orderBy: { id: 'asc' }, select: ['id'] });
    }
    const [first, ...duplicates] = rows;
    if (!first) throw new Error('the dispatcher lease row could not be created');
    if (duplicates.length > 0) {
      await query()
        .deleteMany({ where: { name, id: { $gt: first.id } } })
        .catch(() => undefined);
    }
    return first.id;
  }

  return {
    /** True when this instance holds (or just took, or renewed) the lease. */
    async acquire(now = new Date()): Promise<boolean> {
      const id = await leaseRowId();
      const { count } = await query().updateMany({
        where: { id, $or: [{ owner }, { owner: null }, { expiresAt: null }, { expiresAt: { $lt: now } }] },
        data: { owner, expiresAt: new Date(now.getTime() + leaseMs) },
      });
      return count === 1;
    },
    async release(): Promise<void> {
      await query().updateMany({ where: { name, owner }, data: { owner: null, expiresAt: null } });
    },
  };
}

export type DispatcherLease = ReturnType<typeof createLease>;
