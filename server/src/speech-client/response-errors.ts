/**
 * Reading a non-2xx answer of the speech service: which error class it is, with the service's code,
 * message, details, credits and retry timing taken from whatever body shape and headers it used.
 */
import {
  SpeechServiceUnavailableError,
  UnexpectedResponseError,
  serviceErrorForCode,
  serviceErrorForStatus,
  type SpeechEndpoint,
  type SpeechServiceError,
  type SpeechServiceErrorInit,
} from './errors';
import { headerValue, numericHeader, type ResponseHeaders } from './headers';
import { parseRetryAfter } from './retry';
import { isRecord, toNumber } from './values';
import { cleanMessage } from './wording';

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

  const creditsRemaining = toNumber(details?.credits_remaining) ?? numericHeader(headers, 'service-credits-remaining');
  const creditsRequired = toNumber(details?.credits_required) ?? numericHeader(headers, 'service-credits-used');
  if (creditsRemaining !== undefined) init.creditsRemaining = creditsRemaining;
  // Service-Credits-Used means "required" only on a 402; elsewhere it is what a request cost.
  if (creditsRequired !== undefined && (status === 402 || parsed.code === 'INSUFFICIENT_CREDITS')) {
    init.creditsRequired = creditsRequired;
  }

  if (status === 429 || status >= 500 || parsed.code === 'RATE_LIMIT_EXCEEDED') {
    const retryAfterMs = retryAfterFrom(headers, details, now);
    if (retryAfterMs !== undefined) init.retryAfterMs = retryAfterMs;
  }

  const ByCode = parsed.code !== undefined ? serviceErrorForCode(parsed.code) : undefined;
  if (ByCode) return new ByCode(init);
  if (parsed.code !== undefined) init.serviceCode = parsed.code;

  const ByStatus = serviceErrorForStatus(endpoint, status);
  if (ByStatus) return new ByStatus(init);

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
  return entries.length > 0 && entries.every(([, messages]) => Array.isArray(messages) && messages.every((m) => typeof m === 'string'));
}

function firstString(...values: unknown[]): string | undefined {
  for (const value of values) if (typeof value === 'string' && value.trim() !== '') return value;
  return undefined;
}

function retryAfterFrom(headers: ResponseHeaders, details: Record<string, unknown> | undefined, now: number): number | undefined {
  const fromRetryAfter = parseRetryAfter(headerValue(headers, 'retry-after'), now);
  if (fromRetryAfter !== undefined) return fromRetryAfter;

  const reset = numericHeader(headers, 'ratelimit-reset');
  if (reset !== undefined) {
    // The contract calls it a Unix timestamp; the IETF draft header is a number of seconds.
    // A value before 2001 cannot be a timestamp of now, so it is read as seconds.
    return reset > 1_000_000_000 ? Math.max(0, Math.round(reset * 1000 - now)) : Math.max(0, Math.round(reset * 1000));
  }

  const resetAfter = toNumber(details?.reset_after);
  if (resetAfter !== undefined) return Math.max(0, Math.round(resetAfter * 1000));
  return undefined;
}
