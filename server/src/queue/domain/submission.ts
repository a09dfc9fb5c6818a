import {
  AlreadyProcessingError,
  AuthFailedError,
  ForbiddenError,
  InsufficientCreditsError,
  InvalidRequestError,
  RateLimitExceededError,
  RefundFailedError,
  SpeechServiceError,
  UnauthorizedError,
  ValidationFailedError,
  nextRetryDelay,
} from '../../speech-client';
import type { NarrationEvent } from './states';

/** What a failed POST /process-text means for the narration and the queue (spec section 7). */
export type SubmissionFailurePlan =
  | { event: NarrationEvent; pauseQueue?: undefined }
  | { event: NarrationEvent; pauseQueue: { code: string; reason: string; creditsRemaining?: number; creditsRequired?: number } };

export interface SubmittedText {
  characters: number;
  isPart?: boolean;
}

/** A validation error's complaints about `text` (spec 7.3, 7.4): never empty, so about its length (spec 8: a maximum exists, unpublished). */
export function textComplaints(error: unknown): string[] | null {
  if (!(error instanceof ValidationFailedError || error instanceof InvalidRequestError)) return null;
  const messages = error.details?.text;
  if (messages === undefined) return null;
  const list = (Array.isArray(messages) ? messages : [messages]).filter((message): message is string => typeof message === 'string');
  return list.length ? list : null;
}

export function textTooLongReason(text: SubmittedText, complaints: readonly string[]): string {
  const said = `the speech service answered: "${complaints.join(' ')}"`;
  const size = `${text.characters.toLocaleString('en')} characters`;
  if (text.isPart) {
    return (
      `This part (${size}) is more than the speech service takes in one request (${said}). ` +
      'Nothing was charged. Lower segmentCharacters for this content type in the speech settings.'
    );
  }
  return (
    `This article (${size}) is more than the speech service takes in one request (${said}). Nothing was charged. ` +
    "Narrate this content type in segmented mode (narrationMode 'segmented' in the speech settings): long articles are then narrated in parts."
  );
}

export function planSubmissionFailure(
  error: unknown,
  ctx: {
    attempt: number;
    maxAttempts: number;
    callbackTimeoutMs: number;
    now: Date;
    random?: () => number;
    /** What was sent: a refusal of its length is explained with it. */
    text?: SubmittedText;
    voice?: { voiceId: string; sitesOwn: boolean };
  }
): SubmissionFailurePlan {
  const { now } = ctx;
  if (!(error instanceof SpeechServiceError)) {
    const reason = `Unexpected error while submitting: ${error instanceof Error ? error.message : String(error)}`;
    // Our own failure, at a point we cannot tell: the request may have gone out.
    return {
      event: {
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
    return { event: { type: 'submitAlreadyProcessing', callbackTimeoutMs: ctx.callbackTimeoutMs, now } };
  }
  if (error instanceof InsufficientCreditsError) {
    return {
      event: { type: 'submitPaused', reason: error.message, code: error.code },
      pauseQueue: {
        code: error.code,
        reason: error.message,
        creditsRemaining: error.creditsRemaining,
        creditsRequired: error.creditsRequired,
      },
    };
  }
  if (error instanceof ForbiddenError && ctx.voice && !ctx.voice.sitesOwn) {
    // The key may not use this one voice: the article fails, the rest of the queue goes on.
    const said = error.serviceMessage ? ` The service said: "${error.serviceMessage}".` : '';
    const reason = `The speech service does not let this site's API key use the voice "${ctx.voice.voiceId}" an editor chose (${error.code}). Choose another voice for this article.${said}`;
    return { event: { type: 'submitRejected', reason, code: error.code } };
  }
  if (error instanceof AuthFailedError || error instanceof UnauthorizedError || error instanceof ForbiddenError) {
    const reason = `The speech service refused the API key (${error.code}): check the plugin configuration. ${error.message}`;
    return { event: { type: 'submitPaused', reason, code: error.code }, pauseQueue: { code: error.code, reason } };
  }
  if (error.retryable) {
    const delay = nextRetryDelay(error, ctx.attempt, { random: ctx.random }) ?? 1_000;
    return {
      event: {
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
  const complaints = ctx.text && textComplaints(error);
  if (ctx.text && complaints) {
    // Refused before any generation ran: nothing was charged, and asking again would be refused again.
    return { event: { type: 'submitRejected', reason: textTooLongReason(ctx.text, complaints), code: 'TEXT_TOO_LONG' } };
  }
  return {
    event: { type: 'submitRejected', reason: error.message, code: error.code, creditsMayBeLost: error instanceof RefundFailedError },
  };
}
