import {
  ConcurrentRequestError,
  InternalServerError,
  InvalidVoiceIdError,
  RateLimitExceededError,
  SpeechServiceUnavailableError,
  AlreadyProcessingError,
} from '../../../server/src/speech-client/errors';
import { backoffDelay, nextRetryDelay, parseRetryAfter } from '../../../server/src/speech-client/retry';

const NOW = Date.UTC(2025, 0, 15, 12, 0, 0);
const noJitter = { random: () => 0.5 };

describe('parseRetryAfter', () => {
  it('reads delay-seconds', () => {
    expect(parseRetryAfter('0', NOW)).toBe(0);
    expect(parseRetryAfter('30', NOW)).toBe(30_000);
    expect(parseRetryAfter(' 120 ', NOW)).toBe(120_000);
    expect(parseRetryAfter('1.5', NOW)).toBe(1_500);
  });

  it('reads the three HTTP-date forms', () => {
    expect(parseRetryAfter(new Date(NOW + 60_000).toUTCString(), NOW)).toBe(60_000);
    expect(parseRetryAfter('Wed, 15 Jan 2025 12:01:00 GMT', NOW)).toBe(60_000);
    expect(parseRetryAfter('Wednesday, 15-Jan-25 12:01:00 GMT', NOW)).toBe(60_000);
    expect(parseRetryAfter('Wed Jan 15 12:01:00 2025', NOW - new Date().getTimezoneOffset() * 60_000)).toBeDefined();
  });

  it('gives 0 for a past date or negative seconds', () => {
    expect(parseRetryAfter('Wed, 15 Jan 2025 11:00:00 GMT', NOW)).toBe(0);
    expect(parseRetryAfter('-5', NOW)).toBe(0);
  });

  it('gives undefined for nothing or garbage', () => {
    expect(parseRetryAfter(undefined, NOW)).toBeUndefined();
    expect(parseRetryAfter('', NOW)).toBeUndefined();
    expect(parseRetryAfter('soon', NOW)).toBeUndefined();
    expect(parseRetryAfter('1-2', NOW)).toBeUndefined();
    expect(parseRetryAfter('12abc', NOW)).toBeUndefined();
    expect(parseRetryAfter('Wed, 99 Foo 2025', NOW)).toBeUndefined();
  });
});

describe('backoffDelay', () => {
  it('doubles from one second without jitter', () => {
    expect([1, 2, 3, 4, 5].map((attempt) => backoffDelay(attempt, noJitter))).toEqual([1000, 2000, 4000, 8000, 16000]);
  });

  it('stays within ±20 % by default', () => {
    for (let attempt = 1; attempt <= 6; attempt += 1) {
      const nominal = 1000 * 2 ** (attempt - 1);
      expect(backoffDelay(attempt, { random: () => 0 })).toBe(Math.round(nominal * 0.8));
      expect(backoffDelay(attempt, { random: () => 0.999999 })).toBeLessThanOrEqual(Math.round(nominal * 1.2));
      for (let i = 0; i < 50; i += 1) {
        const delay = backoffDelay(attempt);
        expect(delay).toBeGreaterThanOrEqual(Math.floor(nominal * 0.8));
        expect(delay).toBeLessThanOrEqual(Math.ceil(nominal * 1.2));
      }
    }
  });

  it('honours the jitter ratio and base', () => {
    expect(backoffDelay(3, { baseMs: 100, jitterRatio: 0.5, random: () => 0 })).toBe(200);
    expect(backoffDelay(3, { baseMs: 100, jitterRatio: 0.5, random: () => 1 })).toBe(600);
    expect(backoffDelay(3, { baseMs: 100, jitterRatio: 0, random: () => 0 })).toBe(400);
  });

  it('never exceeds the cap, jitter included, even for huge attempts', () => {
    expect(backoffDelay(9, { random: () => 1 })).toBe(5 * 60 * 1000);
    expect(backoffDelay(10_000, { random: () => 1 })).toBe(5 * 60 * 1000);
    expect(backoffDelay(20, { maxMs: 10_000, random: () => 0 })).toBe(10_000);
  });

  it('treats attempts below 1 as the first', () => {
    expect(backoffDelay(0, noJitter)).toBe(1000);
    expect(backoffDelay(-3, noJitter)).toBe(1000);
  });
});

describe('nextRetryDelay', () => {
  it('takes the larger of Retry-After and backoff for 429', () => {
    expect(nextRetryDelay(new RateLimitExceededError({ retryAfterMs: 30_000 }), 1, noJitter)).toBe(30_000);
    expect(nextRetryDelay(new RateLimitExceededError({ retryAfterMs: 500 }), 3, noJitter)).toBe(4_000);
    expect(nextRetryDelay(new RateLimitExceededError(), 2, noJitter)).toBe(2_000);
  });

  it('honours a long Retry-After beyond the backoff cap', () => {
    expect(nextRetryDelay(new RateLimitExceededError({ retryAfterMs: 3_600_000 }), 1, noJitter)).toBe(3_600_000);
  });

  it('backs off for other retryable errors', () => {
    expect(nextRetryDelay(new InternalServerError(), 2, noJitter)).toBe(2_000);
    expect(nextRetryDelay(new SpeechServiceUnavailableError(), 1, noJitter)).toBe(1_000);
    expect(nextRetryDelay(new ConcurrentRequestError(), 4, noJitter)).toBe(8_000);
  });

  it('gives undefined for errors that must not be retried', () => {
    expect(nextRetryDelay(new InvalidVoiceIdError(), 1)).toBeUndefined();
    expect(nextRetryDelay(new AlreadyProcessingError(), 1)).toBeUndefined();
  });
});
