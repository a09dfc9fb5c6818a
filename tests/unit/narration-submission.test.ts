import { planSubmissionFailure } from '../../server/src/narration/domain/submission';
import {
  AlreadyProcessingError,
  AuthFailedError,
  ForbiddenError,
  InsufficientCreditsError,
  InternalServerError,
  InvalidVoiceIdError,
  ProcessingError,
  RateLimitExceededError,
  RefundFailedError,
  SpeechServiceUnavailableError,
  ValidationFailedError,
} from '../../server/src/speech-client';

const now = new Date('2026-01-01T00:00:00Z');
const ctx = { attempt: 1, maxAttempts: 3, callbackTimeoutMs: 900_000, now, random: () => 0.5 };

describe('what a failed POST /process-text means (spec section 7)', () => {
  it('409 ALREADY_PROCESSING waits for the callback instead of resubmitting', () => {
    const plan = planSubmissionFailure(new AlreadyProcessingError(), ctx);
    expect(plan.job.type).toBe('submitAlreadyProcessing');
    expect(plan.pauseQueue).toBeUndefined();
  });

  it('429 waits at least Retry-After and does not use up attempts', () => {
    const plan = planSubmissionFailure(new RateLimitExceededError({ status: 429, retryAfterMs: 30_000 }), ctx);
    expect(plan.job).toMatchObject({ type: 'submitDeferred', countsAsAttempt: false });
    if (plan.job.type !== 'submitDeferred') throw new Error('unreachable');
    expect(plan.job.retryAt.getTime() - now.getTime()).toBeGreaterThanOrEqual(30_000);
  });

  it('5xx and network errors back off 1 s, 2 s, 4 s and count as attempts', () => {
    const delays = [1, 2, 3].map((attempt) => {
      const plan = planSubmissionFailure(new InternalServerError({ status: 500 }), { ...ctx, attempt });
      if (plan.job.type !== 'submitDeferred') throw new Error('expected a deferral');
      expect(plan.job.countsAsAttempt).toBe(true);
      return plan.job.retryAt.getTime() - now.getTime();
    });
    // random 0.5 means no jitter either way
    expect(delays).toEqual([1000, 2000, 4000]);
    const network = planSubmissionFailure(new SpeechServiceUnavailableError(), ctx);
    expect(network.job.type).toBe('submitDeferred');
  });

  it('after a failure that may have reached the service, asks again in a way that cannot charge', () => {
    const timedOut = new SpeechServiceUnavailableError({ outcomeUnknown: true, details: { reason: 'TIMEOUT' } });
    for (const error of [timedOut, new InternalServerError({ status: 500 }), new Error('a bug of ours mid-request')]) {
      const plan = planSubmissionFailure(error, ctx);
      expect(plan.job).toMatchObject({ type: 'submitDeferred', outcomeUnknown: true });
    }
    for (const error of [new SpeechServiceUnavailableError({ message: 'refused' }), new RateLimitExceededError({ status: 429 })]) {
      expect(planSubmissionFailure(error, ctx).job).toMatchObject({ type: 'submitDeferred', outcomeUnknown: false });
    }
  });

  it('402 pauses the whole queue with the balance, and puts the job back', () => {
    const plan = planSubmissionFailure(new InsufficientCreditsError({ status: 402, creditsRemaining: 12, creditsRequired: 340 }), ctx);
    expect(plan.job.type).toBe('submitPaused');
    expect(plan.pauseQueue).toMatchObject({ code: 'INSUFFICIENT_CREDITS', creditsRemaining: 12, creditsRequired: 340 });
  });

  it('401 and 403 pause the queue with a configuration error', () => {
    for (const error of [new AuthFailedError({ status: 401 }), new ForbiddenError({ status: 403 })]) {
      const plan = planSubmissionFailure(error, ctx);
      expect(plan.job.type).toBe('submitPaused');
      expect(plan.pauseQueue?.reason).toMatch(/API key/);
    }
  });

  it('400 INVALID_VOICE_ID, 422 VALIDATION_ERROR and PROCESSING_ERROR fail the job with the reason', () => {
    for (const error of [
      new InvalidVoiceIdError({ status: 400 }),
      new ValidationFailedError({ status: 422 }),
      new ProcessingError({ status: 422 }),
    ]) {
      const plan = planSubmissionFailure(error, ctx);
      expect(plan.job).toMatchObject({ type: 'submitRejected', code: error.code, creditsMayBeLost: false });
      if (plan.job.type === 'submitRejected') expect(plan.job.reason.length).toBeGreaterThan(10);
    }
  });

  it('422 REFUND_FAILED fails the job and flags that credits may be lost', () => {
    const plan = planSubmissionFailure(new RefundFailedError({ status: 422 }), ctx);
    expect(plan.job).toMatchObject({ type: 'submitRejected', code: 'REFUND_FAILED', creditsMayBeLost: true });
  });
});
