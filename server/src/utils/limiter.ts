/**
 * Runs tasks as they come, at most `limit` of them at once, the others waiting their turn in order.
 * For work that arrives one item at a time (boundedMap is for a list known in advance). Hand-written
 * for the reason given in bounded-map.ts (p-limit is ES modules only).
 */
export function createLimiter(limit: number) {
  if (!Number.isSafeInteger(limit) || limit < 1) throw new RangeError(`limit must be a positive integer, got ${String(limit)}`);
  const waiting: Array<() => void> = [];
  let running = 0;
  return async function run<T>(task: () => Promise<T>): Promise<T> {
    if (running >= limit) await new Promise<void>((resolve) => waiting.push(resolve));
    running += 1;
    try {
      return await task();
    } finally {
      running -= 1;
      waiting.shift()?.();
    }
  };
}
