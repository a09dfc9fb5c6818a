/**
 * Speech-service errors as answers of the plugin's admin routes. Pure mapping, plus a small koa helper.
 *
 * The service's own 401 and 403 (a bad or restricted API key) are NOT passed on as 401/403: the
 * admin panel reads a 401 as "your session expired" and logs the editor out, and a 403 as "you
 * lack the permission". They become 502 with the service's code in `details.code`.
 */
import { formatDuration, SpeechServiceError } from '../speech-client';

export interface ErrorAnswer {
  status: number;
  headers: Record<string, string>;
  body: {
    data: null;
    error: {
      status: number;
      name: string;
      message: string;
      details: Record<string, unknown>;
    };
  };
}

const STATUS_BY_CODE: Record<string, number> = {
  INVALID_REQUEST: 400,
  VALIDATION_ERROR: 400,
  INVALID_VOICE_ID: 400,
  UNAUTHORIZED: 502,
  AUTH_FAILED: 502,
  FORBIDDEN: 502,
  INSUFFICIENT_CREDITS: 402,
  NOT_FOUND: 404,
  CONCURRENT_REQUEST: 409,
  ALREADY_PROCESSING: 409,
  RATE_LIMIT_EXCEEDED: 429,
  PAYLOAD_TOO_LARGE: 413,
  UPLOAD_SOURCE_ERROR: 400,
  ABORTED: 499,
  INTERNAL_ERROR: 502,
  SERVICE_UNAVAILABLE: 503,
  UNEXPECTED_RESPONSE: 502,
};

/** Words for an editor who clicked a button (the client's messages promise retries this route does not make). */
function messageFor(error: SpeechServiceError, retryAfterSeconds: number | undefined): string {
  const message = baseMessageFor(error, retryAfterSeconds);
  // The editor decides whether to send it again: say that it may already have been received.
  return error.outcomeUnknown ? `${message} The request may have reached the speech service anyway.` : message;
}

/** The editor-facing message of a speech-service error (what an admin route answers). */
export function editorMessage(error: SpeechServiceError): string {
  return serviceErrorAnswer(error).body.error.message;
}

function baseMessageFor(error: SpeechServiceError, retryAfterSeconds: number | undefined): string {
  switch (error.code) {
    case 'INVALID_REQUEST': {
      const fields = error.details ?? {};
      const textProblem = fieldMessages(fields.text);
      if (textProblem) return `The speech service refused the text: ${textProblem}. Shorten the text and try again.`;
      return error.message;
    }
    case 'RATE_LIMIT_EXCEEDED':
      return retryAfterSeconds !== undefined
        ? `The speech service is rate limiting requests. Try again in ${formatDuration(retryAfterSeconds * 1000)}.`
        : 'The speech service is rate limiting requests. Try again in a moment.';
    case 'CONCURRENT_REQUEST':
      return 'The speech service is busy with another request from this account (one at a time). Try again in a moment.';
    case 'INTERNAL_ERROR':
      return 'The speech service had an internal error. Try again in a moment.';
    case 'SERVICE_UNAVAILABLE':
      return error.message.replace(/;? ?the request will be retried\.?$/i, '. Try again in a moment.').replace(/\.\. /g, '. ');
    default:
      return error.message;
  }
}

function fieldMessages(value: unknown): string | undefined {
  const list = Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : typeof value === 'string' ? [value] : [];
  return list.length ? list.join(' ').replace(/[.\s]+$/, '') : undefined;
}

export function errorAnswer(status: number, name: string, message: string, details: Record<string, unknown> = {}, headers: Record<string, string> = {}): ErrorAnswer {
  return { status, headers, body: { data: null, error: { status, name, message, details } } };
}

/** The answer for a speech-service error (section 7 of the spec). */
export function serviceErrorAnswer(error: SpeechServiceError): ErrorAnswer {
  const status =
    STATUS_BY_CODE[error.code] ?? (error.status !== undefined && error.status >= 400 && error.status < 500 && error.status !== 401 && error.status !== 403 ? error.status : 502);
  const retryAfterSeconds = error.retryAfterMs !== undefined ? Math.max(1, Math.ceil(error.retryAfterMs / 1000)) : undefined;
  const headers: Record<string, string> = {};
  if (retryAfterSeconds !== undefined && (status === 429 || status === 503 || status === 409)) headers['Retry-After'] = String(retryAfterSeconds);
  return errorAnswer(
    status,
    'SpeechServiceError',
    messageFor(error, retryAfterSeconds),
    {
      code: error.code,
      serviceStatus: error.status ?? null,
      creditsRemaining: error.creditsRemaining ?? null,
      creditsRequired: error.creditsRequired ?? null,
      retryAfterSeconds: retryAfterSeconds ?? null,
      ...(error.details && typeof error.details === 'object' && error.code === 'INVALID_REQUEST' ? { fields: error.details } : {}),
    },
    headers
  );
}

/** Writes an answer to a koa context. */
export function sendAnswer(ctx: any, answer: ErrorAnswer): void {
  for (const [name, value] of Object.entries(answer.headers)) ctx.set(name, value);
  ctx.status = answer.status;
  ctx.body = answer.body;
}

/** Sends a speech-service error; anything else is rethrown for Strapi's error middleware. */
export function sendServiceError(ctx: any, error: unknown, extraDetails: Record<string, unknown> = {}): void {
  if (!(error instanceof SpeechServiceError)) throw error;
  const answer = serviceErrorAnswer(error);
  answer.body.error.details = { ...answer.body.error.details, ...extraDetails };
  sendAnswer(ctx, answer);
}

export function formatMegabytes(bytes: number): string {
  const mb = bytes / (1024 * 1024);
  return `${Number.isInteger(mb) ? mb : mb.toFixed(1)} MB`;
}
