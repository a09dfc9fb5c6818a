import {
  AlreadyProcessingError,
  AuthFailedError,
  ForbiddenError,
  InsufficientCreditsError,
  RateLimitExceededError,
  RefundFailedError,
  SpeechServiceError,
  UnauthorizedError,
  nextRetryDelay,
} from '../../speech-client';
import type { NarrationEvent } from './states';

/**
 * What a failed POST /process-text means for the job and the queue (spec section 7, as our issue
 * reads it). Pure, so each rule is tested without a server.
 */
export type SubmissionFailurePlan =
  | { job: NarrationEvent; pauseQueue?: undefined }
  | { job: NarrationEvent; pauseQueue: { code: string; reason: string; creditsRemaining?: number; creditsRequired?: number } };

export function planSubmissionFailure(
  error: unknown,
  ctx: { attempt: number; maxAttempts: number; callbackTimeoutMs: number; now: Date; random?: () => number }
): SubmissionFailurePlan {
  const { now } = ctx;
  if (!(error instanceof SpeechServiceError)) {
    const reason = `Unexpected error while submitting: ${error instanceof Error ? error.message : String(error)}`;
    // Our own failure, at a point we cannot tell: the request may have gone out.
    return {
      job: {
        type: 'submitDeferred',
        retryAt: new Date(now.getTime() + 60_000),
        reason,
        code: 'INTERNAL',
        countsAsAttempt: true,
        maxAttempts: ctx.maxAttempts,
        outcomeUnknown: true,
      },
    };
  }
  if (error instanceof AlreadyProcessingError) {
    // The service is generating this articleId; its callback will come. Never resubmit at once.
    return { job: { type: 'submitAlreadyProcessing', callbackTimeoutMs: ctx.callbackTimeoutMs, now } };
  }
  if (error instanceof InsufficientCreditsError) {
    return {
      job: { type: 'submitPaused', reason: error.message, code: error.code },
      pauseQueue: {
        code: error.code,
        reason: error.message,
        creditsRemaining: error.creditsRemaining,
        creditsRequired: error.creditsRequired,
      },
    };
  }
  if (error instanceof AuthFailedError || error instanceof UnauthorizedError || error instanceof ForbiddenError) {
    const reason = `The speech service refused the API key (${error.code}): check the plugin configuration. ${error.message}`;
    return { job: { type: 'submitPaused', reason, code: error.code }, pauseQueue: { code: error.code, reason } };
  }
  if (error.retryable) {
    const delay = nextRetryDelay(error, ctx.attempt, { random: ctx.random }) ?? 1_000;
    return {
      job: {
        type: 'submitDeferred',
        retryAt: new Date(now.getTime() + delay),
        reason: error.message,
        code: error.code,
        // Being rate limited is not a failure of this article: it does not use up its attempts.
        countsAsAttempt: !(error instanceof RateLimitExceededError),
        maxAttempts: ctx.maxAttempts,
        outcomeUnknown: error.outcomeUnknown,
      },
    };
  }
  return {
    job: { type: 'submitRejected', reason: error.message, code: error.code, creditsMayBeLost: error instanceof RefundFailedError },
  };
}
