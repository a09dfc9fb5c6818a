import {
  ForbiddenError,
  InternalServerError,
  NotFoundError,
  RateLimitExceededError,
  SpeechServiceUnavailableError,
  UnauthorizedError,
  UnexpectedResponseError,
  type SttJob,
} from '../../../server/src/speech-client';
import { MAX_UNEXPECTED_POLL_ERRORS, planFromError, planFromStatus, type PollContext } from '../../../server/src/speech-to-text/status';

const context = (overrides: Partial<PollContext> = {}): PollContext => ({
  pollMs: 5000,
  consecutiveErrors: 0,
  ageMs: 10_000,
  maxWaitMs: 24 * 3_600_000,
  random: () => 0.5,
  ...overrides,
});

const job = (status: string, extra: Record<string, unknown> = {}): SttJob => ({ job_id: 'j1', status, ...extra }) as SttJob;

describe('planFromStatus (spec 2.5, 3.2)', () => {
  it('polls again after the interval while queued or processing', () => {
    expect(planFromStatus(job('queued'), context())).toEqual({ kind: 'waiting', status: 'queued', serviceStatus: 'queued', delayMs: 5000 });
    expect(planFromStatus(job('processing'), context({ pollMs: 300 }))).toEqual({
      kind: 'waiting',
      status: 'processing',
      serviceStatus: 'processing',
      delayMs: 300,
    });
    expect(planFromStatus(job(' Processing '), context())).toMatchObject({ kind: 'waiting', status: 'processing' });
  });

  it('keeps the result when completed', () => {
    const subtitles = [{ start: 0, end: 1, text: 'hi' }];
    expect(planFromStatus(job('completed', { result: { subtitles, language: 'en' } }), context())).toEqual({
      kind: 'completed',
      serviceStatus: 'completed',
      result: { subtitles, language: 'en' },
    });
    expect(planFromStatus(job('completed', { result: { subtitles: '1\n00:00:00,000 --> 00:00:01,000\nhi\n' } }), context())).toMatchObject({
      kind: 'completed',
    });
  });

  it('fails a completed job without readable subtitles', () => {
    expect(planFromStatus(job('completed', { result: {} }), context())).toMatchObject({ kind: 'failed', errorCode: 'EMPTY_RESULT' });
    expect(planFromStatus(job('completed', { result: { subtitles: 42 } }), context())).toMatchObject({
      kind: 'failed',
      errorCode: 'EMPTY_RESULT',
    });
  });

  it('treats any other status as failure and keeps the reason', () => {
    expect(planFromStatus(job('failed'), context())).toEqual({
      kind: 'failed',
      serviceStatus: 'failed',
      error: 'The speech service could not transcribe the audio (status "failed").',
      errorCode: 'TRANSCRIPTION_FAILED',
    });
    expect(planFromStatus(job('error', { error: { code: 'DECODE_ERROR', message: 'Unsupported codec.' } }), context())).toEqual({
      kind: 'failed',
      serviceStatus: 'error',
      error: 'The speech service could not transcribe the audio (status "error"): Unsupported codec.',
      errorCode: 'DECODE_ERROR',
    });
    expect(planFromStatus(job('cancelled', { message: 'cancelled by operator' }), context())).toMatchObject({
      kind: 'failed',
      serviceStatus: 'cancelled',
      error: expect.stringContaining('cancelled by operator'),
    });
    expect(planFromStatus(job(''), context())).toMatchObject({ kind: 'failed', serviceStatus: '(empty)' });
  });

  it('gives up a job that runs past the maximum wait', () => {
    expect(planFromStatus(job('processing'), context({ ageMs: 25 * 3_600_000 }))).toMatchObject({
      kind: 'failed',
      errorCode: 'TIMED_OUT',
      error: expect.stringContaining('24 h'),
    });
  });
});

describe('planFromError', () => {
  it('honours Retry-After on 429 when it is longer than the interval', () => {
    expect(planFromError(new RateLimitExceededError({ retryAfterMs: 7000 }), context())).toMatchObject({
      kind: 'retry',
      delayMs: 7000,
      errorCode: 'RATE_LIMIT_EXCEEDED',
    });
    expect(planFromError(new RateLimitExceededError({ retryAfterMs: 1000 }), context())).toMatchObject({ kind: 'retry', delayMs: 5000 });
  });

  it('backs off exponentially on 5xx and network failures, never below the interval', () => {
    const fast = context({ pollMs: 300 });
    expect(planFromError(new InternalServerError(), fast)).toMatchObject({ kind: 'retry', delayMs: 1000 });
    expect(planFromError(new SpeechServiceUnavailableError(), { ...fast, consecutiveErrors: 3 })).toMatchObject({
      kind: 'retry',
      delayMs: 8000,
    });
    expect(planFromError(new InternalServerError(), { ...fast, consecutiveErrors: 30 })).toMatchObject({ kind: 'retry', delayMs: 300_000 });
    expect(planFromError(new Error('socket hang up'), context())).toMatchObject({ kind: 'retry', delayMs: 5000, errorCode: 'POLL_FAILED' });
  });

  it('fails a job the service no longer knows', () => {
    expect(planFromError(new NotFoundError(), context())).toMatchObject({ kind: 'failed', errorCode: 'JOB_NOT_FOUND' });
  });

  it('keeps polling through key problems (fixed in the settings)', () => {
    expect(planFromError(new UnauthorizedError(), context({ consecutiveErrors: 50 }))).toMatchObject({
      kind: 'retry',
      errorCode: 'UNAUTHORIZED',
    });
    expect(planFromError(new ForbiddenError(), context())).toMatchObject({ kind: 'retry', errorCode: 'FORBIDDEN' });
  });

  it('fails after repeated unexpected answers', () => {
    const error = new UnexpectedResponseError({ message: 'odd answer' });
    expect(planFromError(error, context({ consecutiveErrors: MAX_UNEXPECTED_POLL_ERRORS - 2 }))).toMatchObject({ kind: 'retry' });
    expect(planFromError(error, context({ consecutiveErrors: MAX_UNEXPECTED_POLL_ERRORS - 1 }))).toEqual({
      kind: 'failed',
      serviceStatus: null,
      error: 'odd answer',
      errorCode: 'UNEXPECTED_RESPONSE',
    });
  });

  it('gives up when errors last past the maximum wait', () => {
    expect(planFromError(new InternalServerError(), context({ ageMs: 2, maxWaitMs: 1 }))).toMatchObject({
      kind: 'failed',
      errorCode: 'TIMED_OUT',
    });
  });
});
