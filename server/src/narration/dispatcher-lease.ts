import type { Core } from '@strapi/strapi';
import { LEASE_UID } from '../content-types';

/**
 * One instance at a time submits narrations. Claims of single jobs are already atomic, but
 * `maxInFlight` is a count across the whole account: two instances each seeing two jobs in flight
 * would both submit a third. Holding this lease while counting and submitting keeps the count
 * exact; it expires, so a crashed holder is replaced after `leaseMs`.
 */
export function createDispatcherLease(strapi: Core.Strapi, owner: string, leaseMs: number) {
  const NAME = 'dispatcher';
  const query = () => strapi.db.query(LEASE_UID);

  async function ensureRow() {
    if (await query().findOne({ where: { name: NAME } })) return;
    try {
      await strapi.documents(LEASE_UID).create({ data: { name: NAME, owner: null, expiresAt: null } as never });
    } catch {
      // Another instance created it first (unique name): fine.
    }
  }

  return {
    /** True when this instance holds (or just took, or renewed) the lease. */
    async acquire(now = new Date()): Promise<boolean> {
      await ensureRow();
      const { count } = await query().updateMany({
        where: { name: NAME, $or: [{ owner }, { owner: null }, { expiresAt: null }, { expiresAt: { $lt: now } }] },
        data: { owner, expiresAt: new Date(now.getTime() + leaseMs) },
      });
      return count === 1;
    },
    async release(): Promise<void> {
      await query().updateMany({ where: { name: NAME, owner }, data: { owner: null, expiresAt: null } });
    },
  };
}
