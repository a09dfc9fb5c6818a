import { randomUUID } from 'node:crypto';
import { createFailureEpisodes, type EpisodeLogger } from './failure-episodes';
import { createSerialRunner } from './serial-runner';

/** The name an instance's leases go by: its process and a random tail (two workers of one process differ). */
export const newOwnerId = () => `${process.pid}-${randomUUID().slice(0, 8)}`;

export interface BackgroundLoopOptions {
  log: EpisodeLogger;
  /** Named by the outage's log lines, e.g. "the narration queue". */
  what: string;
  pass: () => Promise<void>;
  /** How long to sleep after a pass; read after each one, so it may ask when work is next due. */
  nextDelayMs: () => number | Promise<number>;
  owner?: string;
}

/**
 * A task of the plugin's own that runs beside Strapi's requests: one pass at a time (a wake-up
 * during a pass runs one more after it), one log line when an outage starts and one when it ends,
 * and a timer that the pass's own next delay sets again after each pass.
 */
export function createBackgroundLoop(options: BackgroundLoopOptions) {
  const owner = options.owner ?? newOwnerId();
  let timer: NodeJS.Timeout | null = null;
  let stopped = true;
  let stopping = false;
  const outage = createFailureEpisodes(options.log, options.what);
  const runner = createSerialRunner(options.pass, { onError: outage.failed, onSuccess: outage.succeeded, isStopped: () => stopped });

  function schedule(delayMs: number) {
    if (stopped) return;
    if (timer) clearTimeout(timer);
    timer = setTimeout(async () => {
      timer = null;
      await runner.runSoon();
      // A failed read of the next delay must not end the loop: the outage is logged by the pass.
      schedule(await Promise.resolve(options.nextDelayMs()).catch(() => 1_000));
    }, delayMs);
    timer.unref?.();
  }

  return {
    owner,
    /** Not started, or stopped. */
    isStopped: () => stopped,
    /** stop() was called since the last start: a pass under way leaves what it has not begun. */
    isStopping: () => stopping,
    /** The first pass after `firstDelayMs`; a loop already started is left as it is. */
    start(firstDelayMs: number) {
      if (!stopped) return;
      stopped = false;
      stopping = false;
      schedule(firstDelayMs);
    },
    /** The next pass after `delayMs`, sooner than the timer would have run it. */
    wakeIn(delayMs: number) {
      schedule(delayMs);
    },
    /** The next pass once the caller's request has answered (serial-runner.ts), the timer untouched. */
    wakeAfterThisTurn() {
      if (!stopped) runner.runAfterThisTurn();
    },
    /** One more pass right after this one: the pass left work behind. */
    requestRerun: runner.requestRerun,
    /** A pass now, or the one running (tests, and the admin's "narrate now"). */
    runOnce: runner.runSoon,
    /** No pass starts after this; resolves once the one running has ended. */
    async stop() {
      stopped = true;
      stopping = true;
      if (timer) clearTimeout(timer);
      timer = null;
      await runner.current();
    },
  };
}

export type BackgroundLoop = ReturnType<typeof createBackgroundLoop>;
