/**
 * The speech client's only HTTP path, turning every failure into a typed error. The API key lives in
 * a closure and the Authorization header only (axios errors, whose `config` holds headers, are never
 * passed on); redirects are not followed, as that would send the Bearer key to the Location's host.
 */
import axios, { type AxiosResponse } from 'axios';

import {
  AuthFailedError,
  RequestAbortedError,
  SpeechServiceError,
  SpeechServiceUnavailableError,
  UnauthorizedError,
  UnexpectedResponseError,
  type SpeechEndpoint,
} from './errors';
import type { ResponseHeaders } from './headers';
import { errorFromResponse } from './response-errors';
import { tryParseJson } from './values';
import { formatDuration } from './wording';

/** JSON answers are small; the cap stops a misbehaving server from filling memory. */
export const MAX_JSON_RESPONSE_BYTES = 20 * 1024 * 1024;
export const MAX_AUDIO_RESPONSE_BYTES = 100 * 1024 * 1024;

export interface Exchange {
  status: number;
  headers: ResponseHeaders;
  body: Buffer;
}

export interface ExchangeRequest {
  endpoint: SpeechEndpoint;
  method: 'GET' | 'POST';
  url: string;
  data?: unknown;
  headers?: Record<string, string>;
  maxContentLength: number;
  /** Given only for the upload, which has no overall deadline. */
  signal?: AbortSignal;
  overallDeadline: boolean;
}

export interface Transport {
  exchange(request: ExchangeRequest): Promise<Exchange>;
  /** The key is scrubbed out of the body first. */
  errorFromBody(endpoint: SpeechEndpoint, status: number, body: Buffer, headers: ResponseHeaders): SpeechServiceError;
  scrub(text: string): string;
}

export interface TransportConfig {
  apiKey: string;
  /** For the upload, an inactivity timeout. */
  timeoutMs: number;
}

export function createTransport({ apiKey, timeoutMs }: TransportConfig): Transport {
  const keyProblem = describeKeyProblem(apiKey);

  // No interceptors: nothing here may log requests, whose headers carry the key.
  const http = axios.create({
    timeout: timeoutMs,
    maxRedirects: 0,
    validateStatus: () => true,
    responseType: 'arraybuffer',
    // Decoded once by the endpoints, so a broken JSON answer is noticed rather than passed on as text.
    transformResponse: [(data: unknown) => data],
    transitional: { clarifyTimeoutError: true, silentJSONParsing: false, forcedJSONParsing: false },
    // Environment proxies would see the Bearer key; the service is called directly.
    proxy: false,
  });

  const scrub = (text: string) => scrubSecret(text, apiKey);
  const errorFromBody = (endpoint: SpeechEndpoint, status: number, body: Buffer, headers: ResponseHeaders) =>
    errorFromResponse(endpoint, status, scrub(body.toString('utf8')), headers);

  async function exchange(request: ExchangeRequest): Promise<Exchange> {
    if (keyProblem !== undefined) {
      const init = { message: keyProblem, details: { reason: 'API_KEY_NOT_USABLE' } };
      throw request.endpoint === 'article' ? new AuthFailedError(init) : new UnauthorizedError(init);
    }
    const origin = new URL(request.url).origin;
    const deadline = request.overallDeadline ? new AbortController() : undefined;
    const timer = deadline ? setTimeout(() => deadline.abort(), timeoutMs) : undefined;

    let response: AxiosResponse<unknown>;
    try {
      response = await http.request<unknown>({
        method: request.method,
        url: request.url,
        data: request.data,
        headers: {
          Accept: 'application/json',
          'User-Agent': 'strapi-plugin-speech',
          ...request.headers,
          Authorization: `Bearer ${apiKey}`,
        },
        maxContentLength: request.maxContentLength,
        signal: deadline?.signal ?? request.signal,
      });
    } catch (error) {
      throw transportError(error, { origin, timeoutMs, timedOut: deadline?.signal.aborted === true });
    } finally {
      if (timer) clearTimeout(timer);
    }

    const body = toBuffer(response.data);
    const headers = response.headers as ResponseHeaders;
    if (response.status >= 200 && response.status <= 299) return { status: response.status, headers, body };
    throw errorFromBody(request.endpoint, response.status, body, headers);
  }

  return { exchange, errorFromBody, scrub };
}

/** A 2xx that is not JSON is read as a passing failure of the service, worth retrying. */
export function parseJsonOrUnavailable(body: Buffer, status: number): unknown {
  const parsed = tryParseJson(body);
  if (parsed === undefined) {
    throw new SpeechServiceUnavailableError({
      status,
      message: 'The speech service sent a response that could not be read; the request will be retried.',
      // It answered: whatever the request asked for may have been done.
      outcomeUnknown: true,
    });
  }
  return parsed;
}

/** The message never repeats the key. */
function describeKeyProblem(apiKey: unknown): string | undefined {
  if (typeof apiKey !== 'string' || apiKey === '') {
    return 'No API key is configured for the speech service. Add it in the plugin settings.';
  }
  // eslint-disable-next-line no-control-regex -- a key with control characters cannot go in a header
  if (/[\s\x00-\x1f\x7f]/.test(apiKey) || /[^\x21-\x7e]/.test(apiKey)) {
    return 'The configured API key contains spaces or characters that cannot be sent; check it in the plugin settings.';
  }
  return undefined;
}

/** Never passes the axios error on: its `config` holds the Authorization header. */
function transportError(error: unknown, context: { origin: string; timeoutMs: number; timedOut: boolean }): SpeechServiceError {
  if (error instanceof SpeechServiceError) return error;
  const code = axios.isAxiosError(error)
    ? error.code
    : typeof (error as { code?: unknown })?.code === 'string'
      ? (error as { code: string }).code
      : undefined;
  const message = axios.isAxiosError(error) ? error.message : '';
  const details = { reason: code ?? 'NETWORK_ERROR', origin: context.origin };

  if (context.timedOut || code === 'ETIMEDOUT' || code === 'ECONNABORTED') {
    return new SpeechServiceUnavailableError({
      message: `The speech service did not answer within ${formatDuration(context.timeoutMs)}; the request will be retried.`,
      details: { ...details, reason: 'TIMEOUT' },
      outcomeUnknown: true,
    });
  }
  if (code === 'ERR_CANCELED') return new RequestAbortedError({ details });
  if (code === 'ERR_BAD_RESPONSE' && /maxContentLength/i.test(message)) {
    return new UnexpectedResponseError({ message: 'The speech service sent a response far larger than expected.', details });
  }
  // The two failures below happen before a connection exists: the service cannot have seen the request.
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') {
    return new SpeechServiceUnavailableError({
      message: `The speech service's address (${new URL(context.origin).host}) could not be found; check the address in the plugin settings.`,
      details,
    });
  }
  if (code === 'ECONNREFUSED') {
    return new SpeechServiceUnavailableError({
      message: `The speech service at ${context.origin} refused the connection; the request will be retried.`,
      details,
    });
  }
  // A connection reset or closed mid-exchange: the request may have been received and acted on.
  return new SpeechServiceUnavailableError({
    message: `The speech service could not be reached (${code ?? 'network error'}); the request will be retried.`,
    details,
    outcomeUnknown: true,
  });
}

function scrubSecret(text: string, secret: string): string {
  return secret === '' ? text : text.split(secret).join('[redacted]');
}

function toBuffer(data: unknown): Buffer {
  if (Buffer.isBuffer(data)) return data;
  if (data instanceof ArrayBuffer) return Buffer.from(data);
  if (ArrayBuffer.isView(data)) return Buffer.from(data.buffer, data.byteOffset, data.byteLength);
  if (typeof data === 'string') return Buffer.from(data, 'utf8');
  return Buffer.alloc(0);
}
