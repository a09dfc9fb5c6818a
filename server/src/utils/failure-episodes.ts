/**
 * One log line when a background task starts failing and one when it works again, instead of a line
 * per attempt: a database that is down for a minute would otherwise fill the log with the same
 * error every two seconds, hiding everything else. Shared by the narration worker and the
 * reconciler.
 */

export interface EpisodeLogger {
  error: (message: string) => void;
  info: (message: string) => void;
}

export function createFailureEpisodes(log: EpisodeLogger, what: string, clock: () => number = Date.now) {
  let since: number | null = null;
  let failures = 0;
  return {
    /** A failed attempt: logged only when it opens an episode. */
    failed(error: Error) {
      failures += 1;
      if (since !== null) return;
      since = clock();
      log.error(`[speech] ${what} failed: ${error.message}. Retrying on its own; nothing more is logged until it works again.`);
    },
    /** A successful attempt: closes an open episode with how long it lasted. */
    succeeded() {
      if (since === null) return;
      const seconds = Math.round((clock() - since) / 1000);
      log.info(`[speech] ${what} works again after ${seconds} s (${failures} failed attempt${failures === 1 ? '' : 's'}).`);
      since = null;
      failures = 0;
    },
    /** Whether an episode is open (the task is failing now). */
    failing: () => since !== null,
  };
}

export type FailureEpisodes = ReturnType<typeof createFailureEpisodes>;
