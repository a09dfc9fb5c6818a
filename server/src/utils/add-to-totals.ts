import type { Knex } from 'knex';

/**
 * Adds amounts to a row of totals, creating it at the first addition to its key (`key`: the
 * table's unique columns and their values), in one statement: `INSERT ... ON CONFLICT DO UPDATE`
 * (MySQL's `ON DUPLICATE KEY UPDATE`). Two instances adding at once both count: neither reads a
 * total to write it back. `replaced` columns are set rather than added to (a title, a count by
 * subquery). The existing row's columns are named with their table: PostgreSQL finds a bare name
 * ambiguous (the row or `excluded`).
 */
export async function addToTotals(
  db: Knex | Knex.Transaction,
  table: string,
  key: Record<string, string>,
  amounts: Record<string, number>,
  at: Date,
  replaced: Record<string, unknown> = {}
) {
  const increments = Object.fromEntries(
    Object.entries(amounts).map(([column, value]) => [column, db.raw('??.?? + ?', [table, column, value])])
  );
  await db(table)
    .insert({ ...key, ...amounts, ...replaced, created_at: at, updated_at: at })
    .onConflict(Object.keys(key))
    .merge({ ...increments, ...replaced, updated_at: at });
}
