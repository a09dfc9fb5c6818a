/** Work left running after a request answered, kept so that shutdown and tests can wait for it. */
export function createPendingWork() {
  const pending = new Set<Promise<unknown>>();
  return {
    track<T>(promise: Promise<T>): Promise<T> {
      pending.add(promise);
      void promise.finally(() => pending.delete(promise));
      return promise;
    },
    async settled(): Promise<void> {
      while (pending.size) await Promise.allSettled([...pending]);
    },
  };
}
