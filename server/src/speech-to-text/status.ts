/** What one status poll means for a transcription (spec 2.5, 3.2). */
import { backoffDelay, SpeechServiceError, type SttJob } from '../speech-client';
import { isReadableSubtitles } from '../subtitles';
import type { TranscriptionStatus } from '../../../shared/contracts/transcriptions';

export type { TranscriptionStatus };
export const ACTIVE_STATUSES: readonly TranscriptionStatus[] = ['queued', 'processing'];

export type PollPlan =
  | { kind: 'waiting'; status: 'queued' | 'processing'; serviceStatus: string; delayMs: number }
  | { kind: 'completed'; serviceStatus: string; result: Record<string, unknown> }
  | { kind: 'failed'; serviceStatus: string | null; error: string; errorCode: string }
  /** The poll itself failed; the job may be fine. */
  | { kind: 'retry'; delayMs: number; error: string; errorCode: string };

export interface PollContext {
  pollMs: number;
  consecutiveErrors: number;
  ageMs: number;
  maxWaitMs: number;
  random?: () => number;
}

/** Errors neither the service's fault nor transient, tolerated this many times in a row. */
export const MAX_UNEXPECTED_POLL_ERRORS = 5;
const MAX_BACKOFF_MS = 5 * 60_000;

export function normaliseServiceStatus(status: unknown): string {
  return typeof status === 'string' ? status.trim().toLowerCase() : '';
}

function failureReason(job: SttJob): string | null {
  const raw = job as unknown as Record<string, unknown>;
  const error = raw.error;
  const candidates = [
    typeof error === 'object' && error !== null ? (error as Record<string, unknown>).message : error,
    raw.message,
    raw.detail,
    raw.reason,
  ];
  for (const candidate of candidates) {
    if (typeof candidate === 'string' && candidate.trim() !== '') return candidate.replace(/\s+/g, ' ').trim().slice(0, 500);
  }
  return null;
}

function failureCode(job: SttJob): string | null {
  const error = (job as unknown as Record<string, unknown>).error;
  const code = typeof error === 'object' && error !== null ? (error as Record<string, unknown>).code : undefined;
  return typeof code === 'string' && /^[A-Z][A-Z0-9_]{1,63}$/.test(code) ? code : null;
}

function timedOut(context: PollContext): PollPlan | null {
  if (context.ageMs <= context.maxWaitMs) return null;
  const hours = Math.round((context.maxWaitMs / 3_600_000) * 10) / 10;
  return {
    kind: 'failed',
    serviceStatus: null,
    error: `The speech service did not finish the transcription within ${hours >= 1 ? `${hours} h` : `${Math.round(context.maxWaitMs / 1000)} s`}; it was given up.`,
    errorCode: 'TIMED_OUT',
  };
}

export function planFromStatus(job: SttJob, context: PollContext): PollPlan {
  const serviceStatus = normaliseServiceStatus(job.status);
  if (serviceStatus === 'queued' || serviceStatus === 'processing') {
    return timedOut(context) ?? { kind: 'waiting', status: serviceStatus, serviceStatus, delayMs: context.pollMs };
  }
  if (serviceStatus === 'completed') {
    const result = job.result as Record<string, unknown> | undefined;
    if (!result || !isReadableSubtitles(result.subtitles)) {
      return {
        kind: 'failed',
        serviceStatus,
        error: 'The speech service reported the transcription complete but sent no readable subtitles.',
        errorCode: 'EMPTY_RESULT',
      };
    }
    return { kind: 'completed', serviceStatus, result: { ...result } };
  }
  const shown = typeof job.status === 'string' && job.status.trim() !== '' ? job.status.trim().slice(0, 60) : '(empty)';
  const reason = failureReason(job);
  return {
    kind: 'failed',
    serviceStatus: shown,
    error: reason
      ? `The speech service could not transcribe the audio (status "${shown}"): ${reason.replace(/[.\s]+$/, '')}.`
      : `The speech service could not transcribe the audio (status "${shown}").`,
    errorCode: failureCode(job) ?? 'TRANSCRIPTION_FAILED',
  };
}

export function planFromError(error: unknown, context: PollContext): PollPlan {
  const attempt = context.consecutiveErrors + 1;
  const backoff = () => Math.max(context.pollMs, backoffDelay(attempt, { baseMs: 1000, maxMs: MAX_BACKOFF_MS, random: context.random }));
  const expired = timedOut(context);

  if (!(error instanceof SpeechServiceError)) {
    const message = error instanceof Error ? error.message : String(error);
    if (expired) return expired;
    return { kind: 'retry', delayMs: backoff(), error: `Checking the transcription failed: ${message}`, errorCode: 'POLL_FAILED' };
  }
  if (error.code === 'NOT_FOUND') {
    return {
      kind: 'failed',
      serviceStatus: null,
      error: 'The speech service no longer knows this transcription job (it may have expired or been removed).',
      errorCode: 'JOB_NOT_FOUND',
    };
  }
  if (expired) return expired;
  if (error.retryable) {
    const delayMs = Math.max(backoff(), error.retryAfterMs ?? 0);
    return { kind: 'retry', delayMs, error: error.message, errorCode: error.code };
  }
  if (error.code === 'UNAUTHORIZED' || error.code === 'FORBIDDEN' || error.code === 'AUTH_FAILED') {
    // A key problem is fixed in the settings; the job itself may still be fine.
    return { kind: 'retry', delayMs: backoff(), error: error.message, errorCode: error.code };
  }
  if (attempt >= MAX_UNEXPECTED_POLL_ERRORS) {
    return { kind: 'failed', serviceStatus: null, error: error.message, errorCode: error.code };
  }
  return { kind: 'retry', delayMs: backoff(), error: error.message, errorCode: error.code };
}
