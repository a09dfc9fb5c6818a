/**
 * Retry timing (spec 7.5): exponential backoff of 1 s, 2 s, 4 s... for 429, 5xx and transport failures,
 * never sooner than the service's Retry-After.
 */
import type { SpeechServiceError } from './errors';

export interface BackoffOptions {
  /** Delay of the first retry. Default 1000 ms. */
  baseMs?: number;
  /** Ceiling of any backoff delay, jitter included. Default 5 minutes. */
  maxMs?: number;
  /** Spread of the jitter: 0.2 means the delay lands anywhere within ±20 %. Default 0.2. */
  jitterRatio?: number;
  /** Source of randomness in [0, 1); injectable so tests are deterministic. */
  random?: () => number;
}

const DEFAULT_BASE_MS = 1000;
const DEFAULT_MAX_MS = 5 * 60 * 1000;
const DEFAULT_JITTER_RATIO = 0.2;

/**
 * Milliseconds to wait according to a Retry-After header: either delay-seconds or an HTTP-date.
 * A date in the past gives 0; anything unreadable gives undefined.
 */
export function parseRetryAfter(headerValue: string | undefined, now: number): number | undefined {
  if (headerValue === undefined) return undefined;
  const value = headerValue.trim();
  if (value === '') return undefined;

  if (/^-?\d+(\.\d+)?$/.test(value)) {
    return Math.max(0, Math.round(Number(value) * 1000));
  }
  // HTTP-dates always name a weekday or month; requiring letters keeps Date.parse's leniency
  // (which reads "2" or "1-2" as dates) out of it.
  if (!/[a-z]{3}/i.test(value)) return undefined;
  const date = Date.parse(value);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - now);
}

/** Delay before retry number `attempt` (1-based): base · 2^(attempt-1), jittered, capped at maxMs. */
export function backoffDelay(attempt: number, opts: BackoffOptions = {}): number {
  const baseMs = opts.baseMs ?? DEFAULT_BASE_MS;
  const maxMs = opts.maxMs ?? DEFAULT_MAX_MS;
  const jitterRatio = Math.min(1, Math.max(0, opts.jitterRatio ?? DEFAULT_JITTER_RATIO));
  const random = opts.random ?? Math.random;

  const step = Math.max(1, Math.floor(Number.isFinite(attempt) ? attempt : 1));
  // 2^60 already exceeds any sane cap; clamping the exponent keeps the arithmetic finite.
  const exponential = baseMs * 2 ** Math.min(step - 1, 60);
  const jitter = 1 + jitterRatio * (2 * clampUnit(random()) - 1);
  return Math.round(Math.min(maxMs, Math.max(0, exponential * jitter)));
}

/**
 * How long to wait before retrying after `error`, or undefined when it must not be retried.
 * A Retry-After the service sent is honoured even beyond maxMs: it knows when it will accept us again.
 */
export function nextRetryDelay(error: SpeechServiceError, attempt: number, opts: BackoffOptions = {}): number | undefined {
  if (!error.retryable) return undefined;
  const backoff = backoffDelay(attempt, opts);
  return error.retryAfterMs !== undefined ? Math.max(error.retryAfterMs, backoff) : backoff;
}

function clampUnit(value: number): number {
  if (!Number.isFinite(value)) return 0.5;
  return Math.min(1, Math.max(0, value));
}
