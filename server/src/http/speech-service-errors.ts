/**
 * Speech-service errors as admin route answers. The service's 401 and 403 (a bad API key) become
 * 502: the admin panel reads a 401 as "session expired" and logs the editor out.
 */
import { formatDuration, SpeechServiceError } from '../speech-client';
import { StatusError } from './status-error';

export interface ServiceErrorAnswer {
  status: number;
  headers: Record<string, string>;
  message: string;
  details: Record<string, unknown>;
}

export const SPEECH_SERVICE_ERROR = 'SpeechServiceError';

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

/** The client's messages promise retries this route does not make. */
function messageFor(error: SpeechServiceError, retryAfterSeconds: number | undefined): string {
  const message = baseMessageFor(error, retryAfterSeconds);
  return error.outcomeUnknown ? `${message} The request may have reached the speech service anyway.` : message;
}

export function editorMessage(error: SpeechServiceError): string {
  return serviceErrorAnswer(error).message;
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
  const list = Array.isArray(value)
    ? value.filter((item): item is string => typeof item === 'string')
    : typeof value === 'string'
      ? [value]
      : [];
  return list.length ? list.join(' ').replace(/[.\s]+$/, '') : undefined;
}

/** Spec section 7. */
export function serviceErrorAnswer(error: SpeechServiceError): ServiceErrorAnswer {
  const status =
    STATUS_BY_CODE[error.code] ??
    (error.status !== undefined && error.status >= 400 && error.status < 500 && error.status !== 401 && error.status !== 403
      ? error.status
      : 502);
  const retryAfterSeconds = error.retryAfterMs !== undefined ? Math.max(1, Math.ceil(error.retryAfterMs / 1000)) : undefined;
  const headers: Record<string, string> = {};
  if (retryAfterSeconds !== undefined && (status === 429 || status === 503 || status === 409))
    headers['Retry-After'] = String(retryAfterSeconds);
  return {
    status,
    headers,
    message: messageFor(error, retryAfterSeconds),
    details: {
      code: error.code,
      serviceStatus: error.status ?? null,
      creditsRemaining: error.creditsRemaining ?? null,
      creditsRequired: error.creditsRequired ?? null,
      retryAfterSeconds: retryAfterSeconds ?? null,
      ...(error.details && typeof error.details === 'object' && error.code === 'INVALID_REQUEST' ? { fields: error.details } : {}),
    },
  };
}

/** Strapi's error middleware writes it; `Retry-After` is set on the response first. */
export function rethrowForAdmin(
  ctx: { set(name: string, value: string): void },
  error: unknown,
  extraDetails: Record<string, unknown> = {}
): never {
  if (!(error instanceof SpeechServiceError)) throw error;
  const answer = serviceErrorAnswer(error);
  for (const [name, value] of Object.entries(answer.headers)) ctx.set(name, value);
  throw new StatusError(answer.status, SPEECH_SERVICE_ERROR, answer.message, { ...answer.details, ...extraDetails });
}
