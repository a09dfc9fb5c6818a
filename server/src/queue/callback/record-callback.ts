import type { NarrationEvent, NarrationState, NarrationStatus, ResultUrls } from '../domain/states';

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

export interface CallbackRules {
  maxAttempts: number;
  noAudioGraceMs: number;
}

export type CallbackRow = Pick<NarrationState, 'seenResults' | 'noAudioCheck'> & { articleId: string; pendingResult?: ResultUrls | null };

/** How long a callback waits for the answer of a submission under way to be recorded (settledRow). */
const SUBMISSION_SETTLE_MS = 3_000;

/** A re-delivery's callback can overtake the worker's write of the 202: wait (seconds at most) for it, or the result is lost until the callback timeout. */
export async function settledRow<Row extends { status: NarrationStatus }>(read: () => Promise<Row | null>): Promise<Row | null> {
  const deadline = Date.now() + SUBMISSION_SETTLE_MS;
  let row = await read();
  while (row?.status === 'submitting' && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    row = await read();
  }
  return row;
}

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
