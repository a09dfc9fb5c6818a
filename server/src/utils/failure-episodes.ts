/**
 * One log line when a background task starts failing and one when it works again, instead of a line
 * per attempt: a database that is down for a minute would otherwise fill the log with the same
 * error every two seconds, hiding everything else. An episode ends only once the task has worked
 * for `quietMs` without failing: right after a database comes back, each dead connection left in
 * the pool fails once, and successes and failures alternate for a while.
 */

export interface EpisodeLogger {
  error: (message: string) => void;
  info: (message: string) => void;
}

export function createFailureEpisodes(log: EpisodeLogger, what: string, { clock = Date.now, quietMs = 15_000 } = {}) {
  let since: number | null = null;
  let lastFailure = 0;
  let failures = 0;
  return {
    /** A failed attempt: logged only when it opens an episode. */
    failed(error: Error) {
      failures += 1;
      lastFailure = clock();
      if (since !== null) return;
      since = lastFailure;
      log.error(`[speech] ${what} failed: ${error.message}. Retrying on its own; nothing more is logged until it works again.`);
    },
    /** A successful attempt: closes an open episode once no attempt has failed for `quietMs`. */
    succeeded() {
      if (since === null || clock() - lastFailure < quietMs) return;
      const seconds = Math.round((lastFailure - since) / 1000);
      log.info(`[speech] ${what} works again (it failed for ${seconds} s, ${failures} failed attempt${failures === 1 ? '' : 's'}).`);
      since = null;
      failures = 0;
    },
    /** Whether an episode is open (the task failed, and has not yet worked for `quietMs`). */
    failing: () => since !== null,
  };
}
