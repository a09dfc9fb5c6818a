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
 * A non-2xx response as its error class: the code when the contract knows it, else the status.
 * The body may be 7.1's `{success:false,error:{...}}`, flat, `{error}`, `{detail}`, text or nothing.
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
    // The contract calls it a Unix timestamp, the IETF draft seconds: before 2001 it is read as seconds.
    return reset > 1_000_000_000 ? Math.max(0, Math.round(reset * 1000 - now)) : Math.max(0, Math.round(reset * 1000));
  }

  const resetAfter = toNumber(details?.reset_after);
  if (resetAfter !== undefined) return Math.max(0, Math.round(resetAfter * 1000));
  return undefined;
}
