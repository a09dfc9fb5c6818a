/**
 * Runs a background task one pass at a time: asking while a pass is running schedules exactly one
 * more pass after it, so wake-ups (a publish, a callback) are never lost and never overlap.
 * Shared by the narration worker and the transcription poller.
 */
export function createSerialRunner(
  pass: () => Promise<void>,
  options: { onError: (error: Error) => void; onSuccess?: () => void; isStopped: () => boolean }
) {
  let running: Promise<void> | null = null;
  let rerun = false;

  function runSoon(): Promise<void> {
    if (running) {
      rerun = true;
      return running;
    }
    running = (async () => {
      do {
        rerun = false;
        try {
          await pass();
          options.onSuccess?.();
        } catch (error) {
          options.onError(error as Error);
        }
      } while (rerun && !options.isStopped());
    })().finally(() => {
      running = null;
    });
    return running;
  }

  return {
    runSoon,
    /** Asks for another pass right after the current one (a pass that left work behind). */
    requestRerun() {
      rerun = true;
    },
    /** The pass in progress, if any (shutdown waits for it). */
    current: () => running,
  };
}
