import { planSubmissionFailure } from '../../../server/src/queue/domain/submission';
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
  InvalidRequestError,
} from '../../../server/src/speech-client';

const now = new Date('2026-01-01T00:00:00Z');
const ctx = { attempt: 1, maxAttempts: 3, callbackTimeoutMs: 900_000, now, random: () => 0.5 };

describe('what a failed POST /process-text means (spec section 7)', () => {
  it('409 ALREADY_PROCESSING waits for the callback instead of resubmitting', () => {
    const plan = planSubmissionFailure(new AlreadyProcessingError(), ctx);
    expect(plan.event.type).toBe('submitAlreadyProcessing');
    expect(plan.pauseQueue).toBeUndefined();
  });

  it('429 waits at least Retry-After and does not use up attempts', () => {
    const plan = planSubmissionFailure(new RateLimitExceededError({ status: 429, retryAfterMs: 30_000 }), ctx);
    expect(plan.event).toMatchObject({ type: 'submitDeferred', countsAsAttempt: false });
    if (plan.event.type !== 'submitDeferred') throw new Error('unreachable');
    expect(plan.event.retryAt.getTime() - now.getTime()).toBeGreaterThanOrEqual(30_000);
  });

  it('5xx and network errors back off 1 s, 2 s, 4 s and count as attempts', () => {
    const delays = [1, 2, 3].map((attempt) => {
      const plan = planSubmissionFailure(new InternalServerError({ status: 500 }), { ...ctx, attempt });
      if (plan.event.type !== 'submitDeferred') throw new Error('expected a deferral');
      expect(plan.event.countsAsAttempt).toBe(true);
      return plan.event.retryAt.getTime() - now.getTime();
    });
    // random 0.5 means no jitter either way
    expect(delays).toEqual([1000, 2000, 4000]);
    const network = planSubmissionFailure(new SpeechServiceUnavailableError(), ctx);
    expect(network.event.type).toBe('submitDeferred');
  });

  it('after a failure that may have reached the service, asks again in a way that cannot charge', () => {
    const timedOut = new SpeechServiceUnavailableError({ outcomeUnknown: true, details: { reason: 'TIMEOUT' } });
    for (const error of [timedOut, new InternalServerError({ status: 500 }), new Error('a bug of ours mid-request')]) {
      const plan = planSubmissionFailure(error, ctx);
      expect(plan.event).toMatchObject({ type: 'submitDeferred', outcomeUnknown: true });
    }
    for (const error of [new SpeechServiceUnavailableError({ message: 'refused' }), new RateLimitExceededError({ status: 429 })]) {
      expect(planSubmissionFailure(error, ctx).event).toMatchObject({ type: 'submitDeferred', outcomeUnknown: false });
    }
  });

  it('402 pauses the whole queue with the balance, and puts the job back', () => {
    const plan = planSubmissionFailure(new InsufficientCreditsError({ status: 402, creditsRemaining: 12, creditsRequired: 340 }), ctx);
    expect(plan.event.type).toBe('submitPaused');
    expect(plan.pauseQueue).toMatchObject({ code: 'INSUFFICIENT_CREDITS', creditsRemaining: 12, creditsRequired: 340 });
  });

  it('401 and 403 pause the queue with a configuration error', () => {
    for (const error of [new AuthFailedError({ status: 401 }), new ForbiddenError({ status: 403 })]) {
      const plan = planSubmissionFailure(error, ctx);
      expect(plan.event.type).toBe('submitPaused');
      expect(plan.pauseQueue?.reason).toMatch(/API key/);
    }
  });

  it("403 on a voice an editor chose fails that article alone, in plain words; on the site's own voice it pauses the queue", () => {
    const forbidden = new ForbiddenError({ status: 403, serviceMessage: 'Voice not in plan' });
    const chosen = planSubmissionFailure(forbidden, { ...ctx, voice: { voiceId: 'ar-premium-9', sitesOwn: false } });
    expect(chosen.pauseQueue).toBeUndefined();
    expect(chosen.event).toMatchObject({ type: 'submitRejected', code: 'FORBIDDEN' });
    if (chosen.event.type === 'submitRejected') {
      expect(chosen.event.reason).toContain('"ar-premium-9"');
      expect(chosen.event.reason).toContain('Choose another voice');
      expect(chosen.event.reason).toContain('Voice not in plan');
    }
    const own = planSubmissionFailure(forbidden, { ...ctx, voice: { voiceId: 'en-female-1', sitesOwn: true } });
    expect(own.event.type).toBe('submitPaused');
    expect(own.pauseQueue?.code).toBe('FORBIDDEN');
    // A 401 is the key's whatever the voice.
    expect(
      planSubmissionFailure(new AuthFailedError({ status: 401 }), { ...ctx, voice: { voiceId: 'x', sitesOwn: false } }).pauseQueue
    ).toBeDefined();
  });

  it('400 INVALID_VOICE_ID, 422 VALIDATION_ERROR and PROCESSING_ERROR fail the job with the reason', () => {
    for (const error of [
      new InvalidVoiceIdError({ status: 400 }),
      new ValidationFailedError({ status: 422 }),
      new ProcessingError({ status: 422 }),
    ]) {
      const plan = planSubmissionFailure(error, ctx);
      expect(plan.event).toMatchObject({ type: 'submitRejected', code: error.code, creditsMayBeLost: false });
      if (plan.event.type === 'submitRejected') expect(plan.event.reason.length).toBeGreaterThan(10);
    }
  });

  it('422 REFUND_FAILED fails the job and flags that credits may be lost', () => {
    const plan = planSubmissionFailure(new RefundFailedError({ status: 422 }), ctx);
    expect(plan.event).toMatchObject({ type: 'submitRejected', code: 'REFUND_FAILED', creditsMayBeLost: true });
  });
  describe('a text longer than the service takes (spec 8: a maximum exists, its value is not published)', () => {
    const tooLong = () =>
      new ValidationFailedError({
        serviceMessage: 'The request is invalid.',
        details: { text: ['text exceeds the maximum length of 1000 characters (got 3000).'] },
      });

    it('fails a whole article at once, says nothing was charged and points to the segmented mode', () => {
      const plan = planSubmissionFailure(tooLong(), { ...ctx, text: { characters: 3000 } });
      expect(plan.pauseQueue).toBeUndefined();
      expect(plan.event).toEqual({
        type: 'submitRejected',
        code: 'TEXT_TOO_LONG',
        reason:
          'This article (3,000 characters) is more than the speech service takes in one request (the speech service answered: ' +
          '"text exceeds the maximum length of 1000 characters (got 3000)."). Nothing was charged. ' +
          "Narrate this content type in segmented mode (narrationMode 'segmented' in the speech settings): long articles are then narrated in parts.",
      });
    });

    it('says of a part of a segmented narration to lower segmentCharacters', () => {
      const plan = planSubmissionFailure(tooLong(), { ...ctx, text: { characters: 1200, isPart: true } });
      expect(plan.event).toMatchObject({ type: 'submitRejected', code: 'TEXT_TOO_LONG' });
      expect((plan.event as { reason: string }).reason).toMatch(/^This part \(1,200 characters\) is more than .* Lower segmentCharacters/);
    });

    it('reads the general model too (400 INVALID_REQUEST naming the text field)', () => {
      const error = new InvalidRequestError({ details: { text: ['Ensure this field has no more than 5000 characters.'] } });
      expect(planSubmissionFailure(error, { ...ctx, text: { characters: 6000 } }).event).toMatchObject({ code: 'TEXT_TOO_LONG' });
    });

    it('keeps other validation errors as the service worded them', () => {
      const error = new ValidationFailedError({ details: { 'postData.voiceId': ['voiceId is required.'] } });
      expect(planSubmissionFailure(error, { ...ctx, text: { characters: 10 } }).event).toMatchObject({
        type: 'submitRejected',
        code: 'VALIDATION_ERROR',
      });
    });
  });
});
