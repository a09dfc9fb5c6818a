/**
 * The spec's error body (section 7.1) — `{ success: false, error: { code, message, details? } }` —
 * used by every endpoint, including /process-text (the spec leaves that open; one format is
 * simpler for clients and for tests).
 */

export class ApiError extends Error {
  /**
   * @param {number} status HTTP status
   * @param {string} code   machine-readable code from the spec (e.g. INVALID_REQUEST)
   * @param {string} message human-readable text
   * @param {{ details?: Record<string, unknown>, headers?: Record<string, string> }} [extra]
   */
  constructor(status, code, message, extra = {}) {
    super(message);
    this.status = status;
    this.code = code;
    this.details = extra.details;
    this.headers = extra.headers ?? {};
  }

  toBody() {
    return {
      success: false,
      error: { code: this.code, message: this.message, ...(this.details ? { details: this.details } : {}) },
    };
  }
}

/** Errors shared by several endpoints; endpoint-specific ones are built where they are raised. */
export const errors = {
  /** @param {string} message @param {Record<string, unknown>} [details] */
  notFound: (message, details) => new ApiError(404, 'NOT_FOUND', message, { details }),
  internal: () => new ApiError(500, 'INTERNAL_ERROR', 'Unexpected server error.'),
  /**
   * The same body and headers for real and injected rate limiting.
   * @param {{ creditsRemaining: number, resetAfterSec: number }} info
   */
  rateLimited: ({ creditsRemaining, resetAfterSec }) =>
    new ApiError(429, 'RATE_LIMIT_EXCEEDED', `Rate limit exceeded; retry after ${resetAfterSec} s.`, {
      details: { credits_remaining: creditsRemaining, reset_after: resetAfterSec },
      headers: {
        'Retry-After': String(resetAfterSec),
        'RateLimit-Reset': String(Math.ceil(Date.now() / 1000) + resetAfterSec),
      },
    }),
  /**
   * @param {{ creditsRemaining: number, creditsRequired: number }} info
   */
  insufficientCredits: ({ creditsRemaining, creditsRequired }) =>
    new ApiError(402, 'INSUFFICIENT_CREDITS', `Not enough credits: ${creditsRequired} required, ${creditsRemaining} remaining.`, {
      details: { credits_remaining: creditsRemaining, credits_required: creditsRequired },
      headers: creditHeaders(creditsRemaining, creditsRequired),
    }),
};

/**
 * @param {number} remaining @param {number} used
 * @returns {Record<string, string>}
 */
export function creditHeaders(remaining, used) {
  return { 'Service-Credits-Remaining': String(remaining), 'Service-Credits-Used': String(used) };
}
