/**
 * A cheap "has anything changed" stamp for the rows of a table matching `where`: how many there are
 * and the latest `updatedAt` among them (a count and one indexed lookup, no row read). It moves when
 * a row is added, removed or written by a single-row update (Strapi sets `updatedAt` there; it does
 * not on `updateMany`).
 */
interface StampQuery {
  count(params: { where: Record<string, unknown> }): Promise<number>;
  findOne(params: Record<string, unknown>): Promise<unknown>;
}

export async function writeStamp(query: StampQuery, where: Record<string, unknown>): Promise<string> {
  const [count, latest] = await Promise.all([
    query.count({ where }),
    query.findOne({ where, orderBy: { updatedAt: 'desc' }, select: ['updatedAt'] }) as Promise<{ updatedAt?: string } | null>,
  ]);
  return `${count}@${latest?.updatedAt ?? ''}`;
}
