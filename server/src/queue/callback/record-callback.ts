import type { NarrationEvent, NarrationState, NarrationStatus, ResultUrls } from '../domain/states';

/**
 * A callback whose signature holds, on the row it is for: a result to store (or join), a failure
 * to check or retry, or a duplicate or replay that changes nothing.
 */

export interface CallbackInput {
  articleId: string;
  audioFile: string | null;
  srtFile: string | null;
  signature: string;
}

export type CallbackOutcome =
  | { status: 'unauthorized' }
  /** `checking`: a callback without files, to be checked with the service before it counts (domain/states/callback.ts). */
  | { status: 'accepted' | 'duplicate' | 'checking' | 'failure-recorded' | 'ignored'; reason?: string };

/** The queue's settings a callback applies (worker/config.ts). */
export interface CallbackRules {
  maxAttempts: number;
  noAudioGraceMs: number;
}

export type CallbackRow = Pick<NarrationState, 'seenResults' | 'noAudioCheck'> & { articleId: string; pendingResult?: ResultUrls | null };

/** How long a callback waits for the answer of a submission under way to be recorded (settledRow). */
const SUBMISSION_SETTLE_MS = 3_000;

/**
 * The row a callback is for, once a submission of it under way has its answer recorded: a
 * re-delivery's callback (a check of a callback without files, a lost callback asked again) is
 * sent with the 202 that announces it, and can overtake the worker's write of that 202; the row
 * would not await it yet and the result would be lost until the callback timeout. The write comes
 * a moment after the answer: this waits for it, a few seconds at most.
 */
export async function settledRow<Row extends { status: NarrationStatus }>(read: () => Promise<Row | null>): Promise<Row | null> {
  const deadline = Date.now() + SUBMISSION_SETTLE_MS;
  let row = await read();
  while (row?.status === 'submitting' && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    row = await read();
  }
  return row;
}

/**
 * A verified callback on an article's or a part's row: a result to store (or join), a failure to
 * retry, or a duplicate or replay that changes nothing. `moved` hears of a change that was written.
 */
export async function recordCallback(
  input: CallbackInput,
  row: CallbackRow,
  on: {
    apply: (
      event: NarrationEvent
    ) => Promise<{ applied: true; row: Pick<NarrationState, 'status' | 'noAudioCheck'> } | { applied: false; reason: string }>;
    latest: () => Promise<CallbackRow | null>;
    moved: (status: NarrationStatus) => void;
  },
  { maxAttempts, noAudioGraceMs }: CallbackRules
): Promise<CallbackOutcome> {
  const now = new Date();
  if (input.audioFile && input.srtFile) {
    const urls = { audioFile: input.audioFile, srtFile: input.srtFile };
    const outcome = await on.apply({ type: 'callbackWithFiles', urls, graceMs: noAudioGraceMs, now });
    if (outcome.applied) {
      on.moved(outcome.row.status);
      return { status: 'accepted' };
    }
    const latest = await on.latest();
    const known =
      latest?.pendingResult?.audioFile === urls.audioFile ||
      (latest?.seenResults ?? []).some((seen) => seen.audioFile === urls.audioFile && seen.srtFile === urls.srtFile);
    return { status: known ? 'duplicate' : 'ignored', reason: outcome.reason };
  }
  const outcome = await on.apply({ type: 'callbackWithoutFiles', maxAttempts, graceMs: noAudioGraceMs, now });
  if (!outcome.applied) {
    // Another one while a check is on its way (a replay, or a duplicate): only the check's answer counts.
    const checking = Boolean((await on.latest())?.noAudioCheck);
    return { status: checking ? 'checking' : 'ignored', reason: outcome.reason };
  }
  on.moved(outcome.row.status);
  return { status: outcome.row.noAudioCheck ? 'checking' : 'failure-recorded' };
}
