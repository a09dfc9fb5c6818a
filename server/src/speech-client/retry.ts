/** Retry timing (spec 7.5): exponential backoff, never sooner than the service's Retry-After. */
import type { SpeechServiceError } from './errors';

export interface BackoffOptions {
  baseMs?: number;
  maxMs?: number;
  /** 0.2: the delay lands within ±20 %. */
  jitterRatio?: number;
  random?: () => number;
}

const DEFAULT_BASE_MS = 1000;
const DEFAULT_MAX_MS = 5 * 60 * 1000;
const DEFAULT_JITTER_RATIO = 0.2;

/** Delay-seconds or an HTTP-date; a past date gives 0, anything unreadable undefined. */
export function parseRetryAfter(headerValue: string | undefined, now: number): number | undefined {
  if (headerValue === undefined) return undefined;
  const value = headerValue.trim();
  if (value === '') return undefined;

  if (/^-?\d+(\.\d+)?$/.test(value)) {
    return Math.max(0, Math.round(Number(value) * 1000));
  }
  // HTTP-dates name a weekday or month; requiring letters keeps Date.parse's leniency ("1-2") out.
  if (!/[a-z]{3}/i.test(value)) return undefined;
  const date = Date.parse(value);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - now);
}

export function backoffDelay(attempt: number, opts: BackoffOptions = {}): number {
  const baseMs = opts.baseMs ?? DEFAULT_BASE_MS;
  const maxMs = opts.maxMs ?? DEFAULT_MAX_MS;
  const jitterRatio = Math.min(1, Math.max(0, opts.jitterRatio ?? DEFAULT_JITTER_RATIO));
  const random = opts.random ?? Math.random;

  const step = Math.max(1, Math.floor(Number.isFinite(attempt) ? attempt : 1));
  const exponential = baseMs * 2 ** Math.min(step - 1, 60);
  const jitter = 1 + jitterRatio * (2 * clampUnit(random()) - 1);
  return Math.round(Math.min(maxMs, Math.max(0, exponential * jitter)));
}

/** A Retry-After is honoured even beyond maxMs: the service knows when it will accept us again. */
export function nextRetryDelay(error: SpeechServiceError, attempt: number, opts: BackoffOptions = {}): number | undefined {
  if (!error.retryable) return undefined;
  const backoff = backoffDelay(attempt, opts);
  return error.retryAfterMs !== undefined ? Math.max(error.retryAfterMs, backoff) : backoff;
}

function clampUnit(value: number): number {
  if (!Number.isFinite(value)) return 0.5;
  return Math.min(1, Math.max(0, value));
}
