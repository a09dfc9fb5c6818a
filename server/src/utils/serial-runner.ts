import { AsyncResource } from 'node:async_hooks';

/**
 * Runs a background task one pass at a time: asking while a pass is running schedules exactly one
 * more pass after it, so wake-ups (a publish, a callback) are never lost and never overlap.
 * Shared by the narration worker, the reconciliation and the transcription poller.
 *
 * Passes run in the async context the runner was made in (the plugin's start), never in the
 * caller's. Strapi picks a query's transaction from the async context, and a publish records its
 * narration (and wakes the worker) inside the Content Manager's transaction: a pass started there
 * would run its claim and its reads in a transaction that is not the worker's, before it commits.
 */
export function createSerialRunner(
  pass: () => Promise<void>,
  options: { onError: (error: Error) => void; onSuccess?: () => void; isStopped: () => boolean }
) {
  let running: Promise<void> | null = null;
  let rerun = false;
  const home = new AsyncResource('speech.serial-runner');

  function runSoon(): Promise<void> {
    if (running) {
      rerun = true;
      return running;
    }
    running = home
      .runInAsyncScope(async () => {
        do {
          rerun = false;
          try {
            await pass();
            options.onSuccess?.();
          } catch (error) {
            options.onError(error as Error);
          }
        } while (rerun && !options.isStopped());
      })
      .finally(() => {
        running = null;
      });
    return running;
  }

  return {
    runSoon,
    /**
     * A wake-up from someone else's request (a publish, a callback): the pass starts in the next
     * turn of the event loop, once the caller's request has written its answer. The pass's first
     * queries are synchronous on SQLite; started at once they ran before the publish's answer left
     * (about 1 ms on every narrated publish in the flow bench).
     */
    runAfterThisTurn(): void {
      setImmediate(() => {
        if (!options.isStopped()) void runSoon();
      });
    },
    /** Asks for another pass right after the current one (a pass that left work behind). */
    requestRerun() {
      rerun = true;
    },
    /** The pass in progress, if any (shutdown waits for it). */
    current: () => running,
  };
}
