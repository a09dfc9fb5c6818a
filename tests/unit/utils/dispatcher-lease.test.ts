import { createLease, type LeaseQuery } from '../../../server/src/utils/dispatcher-lease';

/**
 * The dispatcher lease over an in-memory table that behaves like the database for the queries
 * the lease sends (equality, null, $lt/$gt, $or; updates and deletes report how many rows matched).
 */
type Row = { id: number; name: string; owner: string | null; expiresAt: Date | null };

function matches(row: Record<string, unknown>, where: Record<string, unknown>): boolean {
  return Object.entries(where).every(([key, condition]) => {
    if (key === '$or') return (condition as Record<string, unknown>[]).some((branch) => matches(row, branch));
    const value = row[key];
    if (condition === null) return value === null;
    if (typeof condition === 'object' && !(condition instanceof Date)) {
      const { $lt, $gt } = condition as { $lt?: number | Date; $gt?: number | Date };
      if ($lt !== undefined) return value !== null && (value as number | Date) < $lt;
      if ($gt !== undefined) return value !== null && (value as number | Date) > $gt;
    }
    return value === condition;
  });
}

function table() {
  const rows: Row[] = [];
  let nextId = 1;
  const query: LeaseQuery = {
    async findMany({ where }) {
      return rows
        .filter((row) => matches(row, where))
        .sort((a, b) => a.id - b.id)
        .map((row) => ({ ...row }));
    },
    async updateMany({ where, data }) {
      const hit = rows.filter((row) => matches(row, where));
      hit.forEach((row) => Object.assign(row, data));
      return { count: hit.length };
    },
    async deleteMany({ where }) {
      const hit = rows.filter((row) => matches(row, where));
      hit.forEach((row) => rows.splice(rows.indexOf(row), 1));
      return { count: hit.length };
    },
  };
  const insert = async (data: Record<string, unknown>) => {
    rows.push({ id: nextId++, ...(data as Omit<Row, 'id'>) });
  };
  return { rows, deps: { query: () => query, createRow: insert }, insert };
}

const now = new Date('2026-11-22T10:00:00Z');
const later = (ms: number) => new Date(now.getTime() + ms);

it('one instance holds the lease; the other gets it once it has expired', async () => {
  const { deps } = table();
  const a = createLease(deps, 'a', 3000);
  const b = createLease(deps, 'b', 3000);
  expect(await a.acquire(now)).toBe(true);
  expect(await b.acquire(later(1000))).toBe(false);
  expect(await a.acquire(later(2000))).toBe(true); // renewed
  expect(await b.acquire(later(4000))).toBe(false);
  expect(await b.acquire(later(5001))).toBe(true);
  await b.release();
  expect(await a.acquire(later(5002))).toBe(true);
});

it('survives two instances creating the lease row at the same moment: exactly one dispatches', async () => {
  const { rows, deps, insert } = table();
  // Both found no row and both inserted one (a Strapi `unique` attribute is not a database constraint).
  await insert({ name: 'dispatcher', owner: null, expiresAt: null });
  await insert({ name: 'dispatcher', owner: null, expiresAt: null });
  const a = createLease(deps, 'a', 3000);
  const b = createLease(deps, 'b', 3000);
  const first = await Promise.all([a.acquire(now), b.acquire(now)]);
  expect(first.filter(Boolean)).toHaveLength(1);
  // The duplicate is gone, and the lease keeps working both ways.
  expect(rows.filter((row) => row.name === 'dispatcher')).toHaveLength(1);
  const holder = first[0] ? a : b;
  const other = first[0] ? b : a;
  expect(await holder.acquire(later(1000))).toBe(true);
  expect(await other.acquire(later(1000))).toBe(false);
  expect(await other.acquire(later(4500))).toBe(true);
});

it('creates the row on first use', async () => {
  const { rows, deps } = table();
  expect(await createLease(deps, 'a', 1000).acquire(now)).toBe(true);
  expect(rows).toEqual([{ id: 1, name: 'dispatcher', owner: 'a', expiresAt: later(1000) }]);
});
