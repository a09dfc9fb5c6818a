/**
 * Errors of the speech service, one class per code of the contract (spec section 7).
 *
 * Every error's `message` is written for an editor: plain words, no HTTP jargon beyond what helps,
 * and never the API key (the client scrubs the key out of response bodies before they reach here,
 * and nothing here ever reads request headers).
 */
import { parseRetryAfter } from './retry';

export type SpeechEndpoint = 'article' | 'general';

/** Response headers as axios, Node or fetch hand them over. */
export type ResponseHeaders =
  | Record<string, unknown>
  | { get(name: string): unknown }
  | null
  | undefined;

export interface SpeechServiceErrorInit {
  /** Replaces the editor-facing message the class would write. */
  message?: string;
  status?: number;
  details?: Record<string, unknown>;
  retryAfterMs?: number;
  creditsRemaining?: number;
  creditsRequired?: number;
  /** The code the service sent, kept when it is unknown and the class was chosen by status. */
  serviceCode?: string;
  /** The service's own message (whitespace collapsed, shortened). */
  serviceMessage?: string;
  /** See SpeechServiceError.outcomeUnknown; each class has its own default. */
  outcomeUnknown?: boolean;
}

interface BaseInit extends SpeechServiceErrorInit {
  code: string;
  retryable: boolean;
}

export class SpeechServiceError extends Error {
  status?: number;
  code: string;
  details?: Record<string, unknown>;
  retryAfterMs?: number;
  creditsRemaining?: number;
  creditsRequired?: number;
  retryable: boolean;
  serviceCode?: string;
  serviceMessage?: string;
  /**
   * The request may have been acted on although no answer says so: it was sent, and then the
   * connection failed, timed out, or the service answered with a server error. Repeating a
   * paid request after such an error can pay twice; a client should first ask in a way that
   * cannot charge (for /process-text: regenerate false).
   */
  outcomeUnknown: boolean;

  constructor(message: string, init: BaseInit) {
    super(message);
    // Keeps `instanceof` working should a bundler ever down-level classes to ES5.
    Object.setPrototypeOf(this, new.target.prototype);
    this.name = 'SpeechServiceError';
    this.code = init.code;
    this.retryable = init.retryable;
    this.outcomeUnknown = init.outcomeUnknown ?? false;
    if (init.status !== undefined) this.status = init.status;
    if (init.details !== undefined) this.details = init.details;
    if (init.retryAfterMs !== undefined) this.retryAfterMs = init.retryAfterMs;
    if (init.creditsRemaining !== undefined) this.creditsRemaining = init.creditsRemaining;
    if (init.creditsRequired !== undefined) this.creditsRequired = init.creditsRequired;
    if (init.serviceCode !== undefined) this.serviceCode = init.serviceCode;
    if (init.serviceMessage !== undefined) this.serviceMessage = init.serviceMessage;
  }

  /** A safe, loggable and API-returnable view (no stack, no raw body). */
  toJSON(): Record<string, unknown> {
    return {
      name: this.name,
      code: this.code,
      status: this.status,
      message: this.message,
      retryable: this.retryable,
      outcomeUnknown: this.outcomeUnknown,
      retryAfterMs: this.retryAfterMs,
      creditsRemaining: this.creditsRemaining,
      creditsRequired: this.creditsRequired,
      serviceCode: this.serviceCode,
      details: this.details,
    };
  }
}

// ---------------------------------------------------------------------------------------------
// Article endpoint (POST /process-text), spec 7.4
// ---------------------------------------------------------------------------------------------

export class AuthFailedError extends SpeechServiceError {
  constructor(init: SpeechServiceErrorInit = {}) {
    super(init.message ?? REJECTED_KEY_MESSAGE, { ...init, status: init.status ?? 401, code: 'AUTH_FAILED', retryable: false });
    this.name = 'AuthFailedError';
  }
}

export class ValidationFailedError extends SpeechServiceError {
  constructor(init: SpeechServiceErrorInit = {}) {
    super(init.message ?? withReason("The speech service rejected the article's data", init), {
      ...init,
      status: init.status ?? 422,
      code: 'VALIDATION_ERROR',
      retryable: false,
    });
    this.name = 'ValidationFailedError';
  }
}

export class InvalidVoiceIdError extends SpeechServiceError {
  constructor(init: SpeechServiceErrorInit = {}) {
    super(init.message ?? 'The chosen voice does not exist on the speech service. Pick another voice.', {
      ...init,
      status: init.status ?? 400,
      code: 'INVALID_VOICE_ID',
      retryable: false,
    });
    this.name = 'InvalidVoiceIdError';
  }
}

/** Not retryable: the callback of the generation in progress will arrive on its own. */
export class AlreadyProcessingError extends SpeechServiceError {
  constructor(init: SpeechServiceErrorInit = {}) {
    super(init.message ?? 'This article is already being narrated; its result will arrive when the current narration finishes.', {
      ...init,
      status: init.status ?? 409,
      code: 'ALREADY_PROCESSING',
      retryable: false,
    });
    this.name = 'AlreadyProcessingError';
  }
}

export class ProcessingError extends SpeechServiceError {
  constructor(init: SpeechServiceErrorInit = {}) {
    super(init.message ?? 'The speech service could not narrate the article; the credits it took were refunded.', {
      ...init,
      status: init.status ?? 422,
      code: 'PROCESSING_ERROR',
      retryable: false,
    });
    this.name = 'ProcessingError';
  }
}

export class RefundFailedError extends SpeechServiceError {
  constructor(init: SpeechServiceErrorInit = {}) {
    super(
      init.message ??
        'The speech service could not narrate the article, and it could not refund the credits it took. Contact the speech service about the refund.',
      { ...init, status: init.status ?? 422, code: 'REFUND_FAILED', retryable: false }
    );
    this.name = 'RefundFailedError';
  }
}

// ---------------------------------------------------------------------------------------------
// General error model, spec 7.3
// ---------------------------------------------------------------------------------------------

export class InvalidRequestError extends SpeechServiceError {
  constructor(init: SpeechServiceErrorInit = {}) {
    super(init.message ?? withReason('The speech service rejected the request', init), {
      ...init,
      status: init.status ?? 400,
      code: 'INVALID_REQUEST',
      retryable: false,
    });
    this.name = 'InvalidRequestError';
  }
}

export class UnauthorizedError extends SpeechServiceError {
  constructor(init: SpeechServiceErrorInit = {}) {
    super(init.message ?? REJECTED_KEY_MESSAGE, { ...init, status: init.status ?? 401, code: 'UNAUTHORIZED', retryable: false });
    this.name = 'UnauthorizedError';
  }
}

export class InsufficientCreditsError extends SpeechServiceError {
  constructor(init: SpeechServiceErrorInit = {}) {
    super(init.message ?? insufficientCreditsMessage(init.creditsRequired, init.creditsRemaining), {
      ...init,
      status: init.status ?? 402,
      code: 'INSUFFICIENT_CREDITS',
      retryable: false,
    });
    this.name = 'InsufficientCreditsError';
  }
}

export class ForbiddenError extends SpeechServiceError {
  constructor(init: SpeechServiceErrorInit = {}) {
    super(
      init.message ??
        'The API key is not allowed to do this (for example, the voice or feature is not included in the plan).',
      { ...init, status: init.status ?? 403, code: 'FORBIDDEN', retryable: false }
    );
    this.name = 'ForbiddenError';
  }
}

export class NotFoundError extends SpeechServiceError {
  constructor(init: SpeechServiceErrorInit = {}) {
    const voiceId = typeof init.details?.voice_id === 'string' ? init.details.voice_id : undefined;
    super(
      init.message ??
        (voiceId !== undefined
          ? `The speech service has no voice "${voiceId}". Pick another voice.`
          : 'The speech service could not find what was asked for (a voice, a job, or the address itself).'),
      { ...init, status: init.status ?? 404, code: 'NOT_FOUND', retryable: false }
    );
    this.name = 'NotFoundError';
  }
}

/** Retryable: the service allows one request per account at a time (spec 7.5: wait and retry). */
export class ConcurrentRequestError extends SpeechServiceError {
  constructor(init: SpeechServiceErrorInit = {}) {
    super(init.message ?? 'The speech service is still busy with another request from this account; this one will be retried.', {
      ...init,
      status: init.status ?? 409,
      code: 'CONCURRENT_REQUEST',
      retryable: true,
    });
    this.name = 'ConcurrentRequestError';
  }
}

export class RateLimitExceededError extends SpeechServiceError {
  constructor(init: SpeechServiceErrorInit = {}) {
    super(
      init.message ??
        `The speech service is rate limiting requests; retrying ${
          init.retryAfterMs !== undefined ? `in ${formatDuration(init.retryAfterMs)}` : 'shortly'
        }.`,
      { ...init, status: init.status ?? 429, code: 'RATE_LIMIT_EXCEEDED', retryable: true }
    );
    this.name = 'RateLimitExceededError';
  }
}

export class InternalServerError extends SpeechServiceError {
  constructor(init: SpeechServiceErrorInit = {}) {
    super(init.message ?? 'The speech service had an internal error; the request will be retried.', {
      // A server error says nothing about what was done before it happened.
      outcomeUnknown: true,
      ...init,
      status: init.status ?? 500,
      code: 'INTERNAL_ERROR',
      retryable: true,
    });
    this.name = 'InternalServerError';
  }
}

// ---------------------------------------------------------------------------------------------
// Transport and local errors
// ---------------------------------------------------------------------------------------------

/** The service could not be reached or answered with something that is not an answer: worth retrying. */
export class SpeechServiceUnavailableError extends SpeechServiceError {
  constructor(init: SpeechServiceErrorInit = {}) {
    super(init.message ?? 'The speech service is unavailable right now; the request will be retried.', {
      ...init,
      code: 'SERVICE_UNAVAILABLE',
      retryable: true,
    });
    this.name = 'SpeechServiceUnavailableError';
  }
}

/** The service answered, but not in a way the contract describes (a redirect, an odd status, a body without the expected fields). */
export class UnexpectedResponseError extends SpeechServiceError {
  constructor(init: SpeechServiceErrorInit = {}) {
    super(
      init.message ??
        `The speech service sent an unexpected response${init.status !== undefined ? ` (HTTP ${init.status})` : ''}.`,
      { ...init, code: 'UNEXPECTED_RESPONSE', retryable: false }
    );
    this.name = 'UnexpectedResponseError';
  }
}

export const MAX_TRANSCRIPTION_UPLOAD_BYTES = 50 * 1024 * 1024;

/** Raised locally, before anything is sent, for audio over the 50 MB limit of spec section 8 (or by a 413 answer). */
export class PayloadTooLargeError extends SpeechServiceError {
  constructor(init: SpeechServiceErrorInit & { sizeBytes?: number } = {}) {
    const { sizeBytes, ...rest } = init;
    super(
      init.message ??
        `The audio file${sizeBytes !== undefined ? ` is ${formatMegabytes(sizeBytes)} and` : ''} is too large: the speech service accepts at most ${formatMegabytes(MAX_TRANSCRIPTION_UPLOAD_BYTES)}.`,
      { ...rest, status: init.status ?? 413, code: 'PAYLOAD_TOO_LARGE', retryable: false }
    );
    this.name = 'PayloadTooLargeError';
  }
}

/** The audio to upload could not be read, or changed size while it was being sent. */
export class UploadSourceError extends SpeechServiceError {
  constructor(init: SpeechServiceErrorInit = {}) {
    super(init.message ?? 'The audio file could not be read for upload.', { ...init, code: 'UPLOAD_SOURCE_ERROR', retryable: false });
    this.name = 'UploadSourceError';
  }
}

/** The caller cancelled the request (its AbortSignal fired). */
export class RequestAbortedError extends SpeechServiceError {
  constructor(init: SpeechServiceErrorInit = {}) {
    super(init.message ?? 'The request to the speech service was cancelled.', { ...init, code: 'ABORTED', retryable: false });
    this.name = 'RequestAbortedError';
  }
}

// ---------------------------------------------------------------------------------------------
// Mapping a response to an error
// ---------------------------------------------------------------------------------------------

type ErrorFactory = (init: SpeechServiceErrorInit) => SpeechServiceError;

/** Codes are unique across both tables of the contract, so one lookup serves both endpoints. */
const ERROR_BY_CODE: Record<string, ErrorFactory> = {
  AUTH_FAILED: (init) => new AuthFailedError(init),
  VALIDATION_ERROR: (init) => new ValidationFailedError(init),
  INVALID_VOICE_ID: (init) => new InvalidVoiceIdError(init),
  ALREADY_PROCESSING: (init) => new AlreadyProcessingError(init),
  PROCESSING_ERROR: (init) => new ProcessingError(init),
  REFUND_FAILED: (init) => new RefundFailedError(init),
  INVALID_REQUEST: (init) => new InvalidRequestError(init),
  UNAUTHORIZED: (init) => new UnauthorizedError(init),
  INSUFFICIENT_CREDITS: (init) => new InsufficientCreditsError(init),
  FORBIDDEN: (init) => new ForbiddenError(init),
  NOT_FOUND: (init) => new NotFoundError(init),
  CONCURRENT_REQUEST: (init) => new ConcurrentRequestError(init),
  RATE_LIMIT_EXCEEDED: (init) => new RateLimitExceededError(init),
  INTERNAL_ERROR: (init) => new InternalServerError(init),
  PAYLOAD_TOO_LARGE: (init) => new PayloadTooLargeError(init),
};

/**
 * Status fallbacks when the body carries no code we know. The article endpoint's table (7.4) comes first
 * for its statuses: there a bare 400 can only be INVALID_VOICE_ID and a bare 422 is read as VALIDATION_ERROR,
 * the most common of its three 422 codes.
 */
const ARTICLE_ERROR_BY_STATUS: Record<number, ErrorFactory> = {
  400: (init) => new InvalidVoiceIdError(init),
  401: (init) => new AuthFailedError(init),
  409: (init) => new AlreadyProcessingError(init),
  422: (init) => new ValidationFailedError(init),
};

const GENERAL_ERROR_BY_STATUS: Record<number, ErrorFactory> = {
  400: (init) => new InvalidRequestError(init),
  401: (init) => new UnauthorizedError(init),
  402: (init) => new InsufficientCreditsError(init),
  403: (init) => new ForbiddenError(init),
  404: (init) => new NotFoundError(init),
  409: (init) => new ConcurrentRequestError(init),
  413: (init) => new PayloadTooLargeError(init),
  // Not in the general table, but frameworks answer validation failures with it.
  422: (init) => new InvalidRequestError(init),
  429: (init) => new RateLimitExceededError(init),
  500: (init) => new InternalServerError(init),
};

/**
 * Maps a non-2xx response of the speech service to its error class.
 *
 * `body` may be the general format of 7.1 (`{success:false,error:{code,message,details}}`), a flat
 * `{code,message,details}`, `{error:'...'}`, `{detail:'...'}`, plain text, a Buffer, or nothing: the code
 * is used when it is one the contract knows, otherwise the status decides.
 */
export function errorFromResponse(
  endpoint: SpeechEndpoint,
  status: number,
  body: unknown,
  headers: ResponseHeaders,
  now: number = Date.now()
): SpeechServiceError {
  const parsed = readErrorBody(body);
  const details = parsed.details;

  const init: SpeechServiceErrorInit = { status };
  if (details !== undefined) init.details = details;
  if (parsed.message !== undefined) init.serviceMessage = parsed.message;

  const creditsRemaining =
    toNumber(details?.credits_remaining) ?? toNumber(headerValue(headers, 'service-credits-remaining'));
  const creditsRequired =
    toNumber(details?.credits_required) ?? toNumber(headerValue(headers, 'service-credits-used'));
  if (creditsRemaining !== undefined) init.creditsRemaining = creditsRemaining;
  // Service-Credits-Used means "required" only on a 402; elsewhere it is what a request cost.
  if (creditsRequired !== undefined && (status === 402 || parsed.code === 'INSUFFICIENT_CREDITS')) {
    init.creditsRequired = creditsRequired;
  }

  if (status === 429 || status >= 500 || parsed.code === 'RATE_LIMIT_EXCEEDED') {
    const retryAfterMs = retryAfterFrom(headers, details, now);
    if (retryAfterMs !== undefined) init.retryAfterMs = retryAfterMs;
  }

  const byCode = parsed.code !== undefined ? ERROR_BY_CODE[parsed.code] : undefined;
  if (byCode) return byCode(init);
  if (parsed.code !== undefined) init.serviceCode = parsed.code;

  const byStatus =
    (endpoint === 'article' ? ARTICLE_ERROR_BY_STATUS[status] : undefined) ?? GENERAL_ERROR_BY_STATUS[status];
  if (byStatus) return byStatus(init);

  if (status >= 500 && status <= 599) {
    return new SpeechServiceUnavailableError({
      ...init,
      outcomeUnknown: true,
      message: `The speech service is unavailable right now (HTTP ${status}); the request will be retried.`,
    });
  }
  if (status >= 300 && status <= 399) {
    return new UnexpectedResponseError({
      ...init,
      message: `The speech service answered with a redirect (HTTP ${status}); check the service addresses in the plugin settings.`,
    });
  }
  return new UnexpectedResponseError(init);
}

interface ParsedErrorBody {
  code?: string;
  message?: string;
  details?: Record<string, unknown>;
}

const CODE_PATTERN = /^[A-Z][A-Z0-9_]{1,63}$/;

/** Pulls code, message and details out of whatever body shape the service used. */
export function readErrorBody(body: unknown): ParsedErrorBody {
  let value: unknown = body;
  if (Buffer.isBuffer(value) || value instanceof ArrayBuffer || ArrayBuffer.isView(value)) {
    value = Buffer.from(value as ArrayBuffer).toString('utf8');
  }
  if (typeof value === 'string') {
    const text = value.trim();
    if (text === '') return {};
    try {
      value = JSON.parse(text);
    } catch {
      // Plain text; an HTML error page (from a proxy, say) says nothing an editor can use.
      return text.startsWith('<') ? {} : { message: cleanMessage(text) };
    }
  }
  if (!isRecord(value)) return typeof value === 'string' ? { message: cleanMessage(value) } : {};

  // 7.1: { success: false, error: { code, message, details } }; also tolerated without `success`.
  const source = isRecord(value.error) ? value.error : value;
  const result: ParsedErrorBody = {};

  const code = normaliseCode(source.code) ?? normaliseCode(source.error_code);
  if (code !== undefined) result.code = code;

  const message = firstString(source.message, source.detail, typeof value.error === 'string' ? value.error : undefined, value.message);
  if (message !== undefined) {
    // `{error:'RATE_LIMIT_EXCEEDED'}` carries a code, not a sentence.
    const asCode = normaliseCode(message);
    if (result.code === undefined && asCode !== undefined && CODE_PATTERN.test(message.trim())) result.code = asCode;
    else result.message = cleanMessage(message);
  }

  const details = source.details ?? value.details;
  if (isRecord(details)) result.details = details;
  else if (details !== undefined && details !== null) result.details = { value: details };
  else if (source === value && value.error === undefined && hasFieldErrors(value)) {
    // A bare `{ field: ['message'] }` validation body, as some frameworks send.
    result.details = value;
  }
  return result;
}

function normaliseCode(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  const code = value.trim().toUpperCase();
  return CODE_PATTERN.test(code) ? code : undefined;
}

function hasFieldErrors(value: Record<string, unknown>): boolean {
  const entries = Object.entries(value);
  return (
    entries.length > 0 &&
    entries.every(([, messages]) => Array.isArray(messages) && messages.every((m) => typeof m === 'string'))
  );
}

function firstString(...values: unknown[]): string | undefined {
  for (const value of values) if (typeof value === 'string' && value.trim() !== '') return value;
  return undefined;
}

function cleanMessage(text: string): string {
  const oneLine = text.replace(/\s+/g, ' ').trim();
  return oneLine.length > 300 ? `${oneLine.slice(0, 297)}...` : oneLine;
}

function retryAfterFrom(headers: ResponseHeaders, details: Record<string, unknown> | undefined, now: number): number | undefined {
  const fromRetryAfter = parseRetryAfter(headerValue(headers, 'retry-after'), now);
  if (fromRetryAfter !== undefined) return fromRetryAfter;

  const reset = toNumber(headerValue(headers, 'ratelimit-reset'));
  if (reset !== undefined) {
    // The contract calls it a Unix timestamp; the IETF draft header is a number of seconds.
    // A value before 2001 cannot be a timestamp of now, so it is read as seconds.
    return reset > 1_000_000_000 ? Math.max(0, Math.round(reset * 1000 - now)) : Math.max(0, Math.round(reset * 1000));
  }

  const resetAfter = toNumber(details?.reset_after);
  if (resetAfter !== undefined) return Math.max(0, Math.round(resetAfter * 1000));
  return undefined;
}

/** Case-insensitive header read over axios, Node and fetch header objects; the first value of a list. */
export function headerValue(headers: ResponseHeaders, name: string): string | undefined {
  if (headers === null || headers === undefined) return undefined;
  const wanted = name.toLowerCase();
  let value: unknown;
  if (typeof (headers as { get?: unknown }).get === 'function') {
    value = (headers as { get(name: string): unknown }).get(wanted);
  }
  if (value === undefined || value === null) {
    for (const [key, candidate] of Object.entries(headers as Record<string, unknown>)) {
      if (key.toLowerCase() === wanted) {
        value = candidate;
        break;
      }
    }
  }
  if (Array.isArray(value)) value = value[0];
  if (typeof value === 'number') return String(value);
  return typeof value === 'string' ? value : undefined;
}

function toNumber(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
  if (typeof value === 'string' && /^\s*-?\d+(\.\d+)?\s*$/.test(value)) return Number(value);
  return undefined;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

// ---------------------------------------------------------------------------------------------
// Wording
// ---------------------------------------------------------------------------------------------

const REJECTED_KEY_MESSAGE =
  'The speech service rejected the API key (missing, invalid, revoked or expired). Check the key in the plugin settings.';

function insufficientCreditsMessage(required: number | undefined, remaining: number | undefined): string {
  if (required !== undefined && remaining !== undefined) {
    return `Not enough credits: ${formatCount(required)} needed, ${formatCount(remaining)} left. Buy credits or shorten the text.`;
  }
  if (remaining !== undefined) return `Not enough credits: ${formatCount(remaining)} left. Buy credits or shorten the text.`;
  return 'Not enough credits on the speech service account. Buy credits or shorten the text.';
}

/** Adds the service's reason, or a summary of per-field messages, to a sentence. */
function withReason(sentence: string, init: SpeechServiceErrorInit): string {
  const reason = init.serviceMessage ?? summariseFieldErrors(init.details);
  return reason ? `${sentence}: ${reason.replace(/[.\s]+$/, '')}.` : `${sentence}.`;
}

function summariseFieldErrors(details: Record<string, unknown> | undefined): string | undefined {
  if (!details) return undefined;
  const parts: string[] = [];
  for (const [field, messages] of Object.entries(details)) {
    const list = Array.isArray(messages) ? messages.filter((m): m is string => typeof m === 'string') : typeof messages === 'string' ? [messages] : [];
    if (list.length > 0) parts.push(`${field}: ${list.join(' ').replace(/[.\s]+$/, '')}`);
    if (parts.length === 3) break;
  }
  return parts.length > 0 ? cleanMessage(parts.join('; ')) : undefined;
}

export function formatCount(value: number): string {
  return value.toLocaleString('en-US');
}

/** 30 s, 2 min, 1 min 30 s, 1 h 5 min. */
export function formatDuration(ms: number): string {
  const totalSeconds = Math.max(0, Math.ceil(ms / 1000));
  if (totalSeconds < 60) return `${totalSeconds} s`;
  const hours = Math.floor(totalSeconds / 3600);
  const minutes = Math.floor((totalSeconds % 3600) / 60);
  const seconds = totalSeconds % 60;
  if (hours > 0) return minutes > 0 ? `${hours} h ${minutes} min` : `${hours} h`;
  return seconds > 0 ? `${minutes} min ${seconds} s` : `${minutes} min`;
}

function formatMegabytes(bytes: number): string {
  const mb = bytes / (1024 * 1024);
  return `${Number.isInteger(mb) ? mb : mb.toFixed(1)} MB`;
}
