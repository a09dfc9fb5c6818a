import type { Core, UID } from '@strapi/strapi';

/**
 * One instance at a time submits, since `maxInFlight` counts across the account. Strapi's `unique` is
 * checked by a query, not the database, so two instances may both insert the lease row: the lowest id
 * is the lease (the others removed), or an update over both would never change exactly one.
 */

/** So a unit test can give it a table. */
export interface LeaseQuery {
  findMany(params: {
    where: Record<string, unknown>;
    orderBy?: Record<string, 'asc' | 'desc'>;
    select?: string[];
  }): Promise<Array<{ id: number }>>;
  updateMany(params: { where: Record<string, unknown>; data: Record<string, unknown> }): Promise<{ count: number }>;
  deleteMany(params: { where: Record<string, unknown> }): Promise<{ count: number }>;
}

/** `table`: the plugin's lease content type; `name`: the lease's row (each background loop holds its own). */
export function createDispatcherLease(strapi: Core.Strapi, table: string, owner: string, leaseMs: number, name = 'dispatcher') {
  return createLease(
    {
      query: () => strapi.db.query(table as UID.Schema) as unknown as LeaseQuery,
      // The query engine: the Document Service would announce an internal row (see queue/rows/narration-rows.ts).
      createRow: async (data) => {
        await strapi.db.query(table as UID.Schema).create({ data: { ...data, publishedAt: new Date() } });
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
