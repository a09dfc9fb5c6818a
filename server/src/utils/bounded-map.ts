/**
 * `items.map(work)` with at most `limit` of them under way at once, results in the items' order.
 * The first failure is thrown once the work under way has settled, and no new work starts after
 * it (so no download is left writing into a folder its caller is about to remove).
 *
 * Hand-written rather than p-limit: p-limit 4 and later are ES modules only, which the plugin's
 * CommonJS server build cannot require on Node 20 (limiter.ts does the same for work that comes one
 * item at a time).
 */
export async function boundedMap<T, R>(items: readonly T[], limit: number, work: (item: T, index: number) => Promise<R>): Promise<R[]> {
  if (!Number.isSafeInteger(limit) || limit < 1) throw new RangeError(`limit must be a positive integer, got ${String(limit)}`);
  const results = new Array<R>(items.length);
  let next = 0;
  let failure: { error: unknown } | null = null;
  async function lane() {
    while (!failure && next < items.length) {
      const index = next++;
      try {
        results[index] = await work(items[index], index);
      } catch (error) {
        failure ??= { error };
      }
    }
  }
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane));
  if (failure) throw (failure as { error: unknown }).error;
  return results;
}
