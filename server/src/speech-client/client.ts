/**
 * Typed HTTP client of the speech services (spec section 4). Knows paths, headers, bodies and the
 * error model; knows nothing of Strapi.
 *
 * Two rules shape it:
 * - The API key goes into the Authorization header and nowhere else: it is held in a closure (not on
 *   the returned object, so logging the client cannot print it), axios errors (whose `config` holds the
 *   headers) are never passed on, and response bodies are scrubbed of the key before they become messages.
 * - Redirects are not followed (maxRedirects 0): following one would send the Bearer key to whatever
 *   host the Location names.
 */
import axios, { type AxiosResponse } from 'axios';
import { randomBytes } from 'crypto';
import { createReadStream, promises as fs } from 'fs';
import { Readable } from 'stream';

import {
  AuthFailedError,
  MAX_TRANSCRIPTION_UPLOAD_BYTES,
  PayloadTooLargeError,
  RequestAbortedError,
  SpeechServiceError,
  SpeechServiceUnavailableError,
  UnauthorizedError,
  UnexpectedResponseError,
  UploadSourceError,
  ValidationFailedError,
  InvalidRequestError,
  errorFromResponse,
  formatDuration,
  headerValue,
  type ResponseHeaders,
  type SpeechEndpoint,
} from './errors';
import type {
  PreprocessType,
  ProcessTextRequest,
  SttJob,
  TranscriptionOutputFormat,
  Voice,
} from './types';

export interface SpeechClientConfig {
  apiKey: string;
  /** Root of the article endpoint ({base_url}); may carry a path prefix and a trailing slash. */
  baseUrl: string;
  /** Root of the STT and TTS endpoints ({web_url}). */
  webUrl: string;
  /** Per request. For the upload it is an inactivity timeout, since a 50 MB upload may rightly take longer. Default 30 s. */
  timeoutMs?: number;
  /** The emulator's voice list. The real service's voice endpoint is not in the spec. */
  voicesPath?: string;
}

export interface ProcessTextResult {
  accepted: true;
  /** The service's "processing started" message. */
  message: string;
  creditsRemaining?: number;
}

export interface GenerateSpeechRequest {
  text: string;
  voiceId: string;
}

export interface GeneratedSpeech {
  audio: Buffer;
  contentType: string;
  creditsRemaining?: number;
  creditsUsed?: number;
}

export interface TranscriptionUpload {
  /** A readable stream or a file path. Never read whole into memory. */
  file: NodeJS.ReadableStream | string;
  filename: string;
  /** Byte size of a stream; lets the 50 MB check happen before sending and the body carry a Content-Length. */
  size?: number;
  contentType?: string;
  /** Default ar-JO (spec 2.4). */
  language?: string;
  /** Default json. */
  outputFormat?: TranscriptionOutputFormat;
}

export interface TranscriptionUploadOptions {
  signal?: AbortSignal;
  /** Called as the audio's bytes are handed to the connection, with the running total of audio bytes. */
  onUploadProgress?: (sentBytes: number) => void;
}

export interface SpeechClient {
  processText(req: ProcessTextRequest): Promise<ProcessTextResult>;
  generateSpeech(req: GenerateSpeechRequest): Promise<GeneratedSpeech>;
  submitTranscription(upload: TranscriptionUpload, opts?: TranscriptionUploadOptions): Promise<{ jobId: string }>;
  getTranscriptionStatus(jobId: string): Promise<SttJob>;
  listVoices(): Promise<Voice[]>;
}

export const DEFAULT_TIMEOUT_MS = 30_000;
export const DEFAULT_VOICES_PATH = '/api/v1/voices';
export const DEFAULT_TRANSCRIPTION_LANGUAGE = 'ar-JO';

/** JSON answers are small; the cap stops a misbehaving server from filling memory. */
const MAX_JSON_RESPONSE_BYTES = 20 * 1024 * 1024;
const MAX_AUDIO_RESPONSE_BYTES = 100 * 1024 * 1024;

interface Exchange {
  status: number;
  headers: ResponseHeaders;
  body: Buffer;
}

interface ExchangeRequest {
  endpoint: SpeechEndpoint;
  method: 'GET' | 'POST';
  url: string;
  data?: unknown;
  headers?: Record<string, string>;
  maxContentLength: number;
  /** The caller's cancellation; given only for the upload, which has no overall deadline. */
  signal?: AbortSignal;
  /** An upload only gets the inactivity timeout; everything else also gets an overall deadline. */
  overallDeadline: boolean;
}

export function createSpeechClient(config: SpeechClientConfig): SpeechClient {
  const apiKey = config.apiKey;
  const keyProblem = describeKeyProblem(apiKey);
  const articleRoot = serviceRoot(config.baseUrl, 'baseUrl');
  const webRoot = serviceRoot(config.webUrl, 'webUrl');
  const timeoutMs = config.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  if (!Number.isFinite(timeoutMs) || timeoutMs <= 0) throw new TypeError('timeoutMs must be a positive number of milliseconds.');
  const voicesPath = normalisePath(config.voicesPath ?? DEFAULT_VOICES_PATH);

  // No interceptors: nothing here may log requests, whose headers carry the key.
  const http = axios.create({
    timeout: timeoutMs,
    maxRedirects: 0,
    validateStatus: () => true,
    responseType: 'arraybuffer',
    // Bodies are decoded here, once, so a broken JSON answer is noticed rather than silently passed on as text.
    transformResponse: [(data: unknown) => data],
    transitional: { clarifyTimeoutError: true, silentJSONParsing: false, forcedJSONParsing: false },
    // Environment proxies would see the Bearer key; the service is called directly.
    proxy: false,
  });

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
    throw errorFromResponse(request.endpoint, response.status, scrubSecret(body.toString('utf8'), apiKey), headers);
  }

  async function processText(req: ProcessTextRequest): Promise<ProcessTextResult> {
    const body = processTextBody(req);
    const { headers, body: raw } = await exchange({
      endpoint: 'article',
      method: 'POST',
      url: `${articleRoot}/process-text`,
      data: JSON.stringify(body),
      headers: { 'Content-Type': 'application/json' },
      maxContentLength: MAX_JSON_RESPONSE_BYTES,
      overallDeadline: true,
    });
    const result: ProcessTextResult = { accepted: true, message: acceptedMessage(raw, apiKey) };
    const creditsRemaining = numericHeader(headers, 'service-credits-remaining');
    if (creditsRemaining !== undefined) result.creditsRemaining = creditsRemaining;
    return result;
  }

  async function generateSpeech(req: GenerateSpeechRequest): Promise<GeneratedSpeech> {
    requireText(req?.text, 'text', 'general', 'There is no text to speak.');
    requireText(req?.voiceId, 'voiceId', 'general', 'No voice was chosen.');
    const { status, headers, body } = await exchange({
      endpoint: 'general',
      method: 'POST',
      url: `${webRoot}/api/v1/tts/generate`,
      data: JSON.stringify({ text: req.text, voice_id: req.voiceId }),
      headers: { 'Content-Type': 'application/json', Accept: 'audio/*, application/json' },
      maxContentLength: MAX_AUDIO_RESPONSE_BYTES,
      overallDeadline: true,
    });
    const contentType = headerValue(headers, 'content-type') ?? 'audio/mpeg';
    if (/json/i.test(contentType)) {
      // A 2xx carrying JSON is not audio; if it is an error body in the general format, say what it says.
      const parsed = tryParseJson(body);
      if (isRecord(parsed) && (parsed.success === false || parsed.error !== undefined)) {
        throw errorFromResponse('general', status >= 400 ? status : 500, scrubSecret(body.toString('utf8'), apiKey), headers);
      }
      throw new UnexpectedResponseError({ status, message: 'The speech service answered with data instead of audio.' });
    }
    if (body.length === 0) {
      throw new UnexpectedResponseError({ status, message: 'The speech service answered without any audio.' });
    }
    const result: GeneratedSpeech = { audio: body, contentType };
    const creditsRemaining = numericHeader(headers, 'service-credits-remaining');
    const creditsUsed = numericHeader(headers, 'service-credits-used');
    if (creditsRemaining !== undefined) result.creditsRemaining = creditsRemaining;
    if (creditsUsed !== undefined) result.creditsUsed = creditsUsed;
    return result;
  }

  async function submitTranscription(
    upload: TranscriptionUpload,
    opts: TranscriptionUploadOptions = {}
  ): Promise<{ jobId: string }> {
    const fields = transcriptionFields(upload);
    if (opts.signal?.aborted) throw new RequestAbortedError();

    // The size is checked before a single byte is sent (spec section 8: 50 MB at most).
    let size = upload.size;
    if (size !== undefined && (!Number.isInteger(size) || size < 0)) {
      throw new InvalidRequestError({ message: 'The audio size must be a whole number of bytes.' });
    }
    if (typeof upload.file === 'string') {
      try {
        const stat = await fs.stat(upload.file);
        if (!stat.isFile()) throw new Error('not a file');
        size = stat.size;
      } catch {
        throw new UploadSourceError({ message: 'The audio file could not be read for upload.' });
      }
    }
    if (size !== undefined && size > MAX_TRANSCRIPTION_UPLOAD_BYTES) throw new PayloadTooLargeError({ sizeBytes: size });

    const boundary = `----speech-client-${randomBytes(16).toString('hex')}`;
    const { head, tail } = multipartEnvelope(boundary, fields, upload.filename, fields.contentType);
    const source: Readable =
      typeof upload.file === 'string'
        ? createReadStream(upload.file)
        : upload.file instanceof Readable
          ? upload.file
          : new Readable().wrap(upload.file);

    // Set by the body generator when the source, not the network, is at fault, so that error is the one reported.
    let sourceFailure: SpeechServiceError | undefined;
    const expectedSize = size;
    const onProgress = opts.onUploadProgress;
    async function* multipartBody(): AsyncGenerator<Buffer> {
      yield head;
      let sent = 0;
      for await (const chunk of source as AsyncIterable<Buffer | string>) {
        const buffer = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
        sent += buffer.length;
        if (sent > MAX_TRANSCRIPTION_UPLOAD_BYTES) {
          sourceFailure = new PayloadTooLargeError({ message: `The audio file is too large: the speech service accepts at most ${MAX_TRANSCRIPTION_UPLOAD_BYTES / (1024 * 1024)} MB.` });
          throw sourceFailure;
        }
        if (expectedSize !== undefined && sent > expectedSize) {
          sourceFailure = new UploadSourceError({ message: 'The audio file grew while it was being uploaded.' });
          throw sourceFailure;
        }
        yield buffer;
        onProgress?.(sent);
      }
      if (expectedSize !== undefined && sent !== expectedSize) {
        sourceFailure = new UploadSourceError({ message: 'The audio file was shorter than its stated size.' });
        throw sourceFailure;
      }
      yield tail;
    }
    const bodyStream = Readable.from(multipartBody(), { objectMode: false });

    const headers: Record<string, string> = { 'Content-Type': `multipart/form-data; boundary=${boundary}` };
    // Without a known size the body goes out chunked.
    if (expectedSize !== undefined) headers['Content-Length'] = String(head.length + expectedSize + tail.length);

    let exchanged: Exchange;
    try {
      exchanged = await exchange({
        endpoint: 'general',
        method: 'POST',
        url: `${webRoot}/api/v1/stt/submit/`,
        data: bodyStream,
        headers,
        maxContentLength: MAX_JSON_RESPONSE_BYTES,
        signal: opts.signal,
        overallDeadline: false,
      });
    } catch (error) {
      throw sourceFailure ?? error;
    } finally {
      // Releases the file descriptor however the request ended (the generator's cleanup closes the source).
      bodyStream.destroy();
      if (typeof upload.file === 'string') source.destroy();
    }

    const parsed = parseJsonOrUnavailable(exchanged.body, exchanged.status);
    const jobId = isRecord(parsed) ? parsed.job_id : undefined;
    if ((typeof jobId !== 'string' || jobId === '') && typeof jobId !== 'number') {
      throw new UnexpectedResponseError({
        status: exchanged.status,
        message: 'The speech service accepted the audio but did not return a job id.',
      });
    }
    return { jobId: String(jobId) };
  }

  async function getTranscriptionStatus(jobId: string): Promise<SttJob> {
    requireText(jobId, 'jobId', 'general', 'No transcription job id was given.');
    const { status, body } = await exchange({
      endpoint: 'general',
      method: 'GET',
      url: `${webRoot}/api/v1/stt/status/${encodeURIComponent(jobId)}/`,
      maxContentLength: MAX_JSON_RESPONSE_BYTES,
      overallDeadline: true,
    });
    const parsed = parseJsonOrUnavailable(body, status);
    if (!isRecord(parsed) || typeof parsed.status !== 'string') {
      throw new UnexpectedResponseError({ status, message: 'The speech service sent a transcription status without a status.' });
    }
    const job: SttJob = {
      job_id: typeof parsed.job_id === 'string' || typeof parsed.job_id === 'number' ? String(parsed.job_id) : jobId,
      status: parsed.status,
    };
    if (isRecord(parsed.error)) {
      const { code, message } = parsed.error;
      job.error = { ...(typeof code === 'string' ? { code } : {}), ...(typeof message === 'string' ? { message: message.slice(0, 500) } : {}) };
    }
    if (isRecord(parsed.result)) {
      job.result = { ...parsed.result, subtitles: parsed.result.subtitles };
    } else if (parsed.status === 'completed') {
      throw new UnexpectedResponseError({ status, message: 'The speech service reported the transcription complete but sent no result.' });
    }
    return job;
  }

  async function listVoices(): Promise<Voice[]> {
    const { status, body } = await exchange({
      endpoint: 'general',
      method: 'GET',
      url: `${webRoot}${voicesPath}`,
      maxContentLength: MAX_JSON_RESPONSE_BYTES,
      overallDeadline: true,
    });
    const parsed = parseJsonOrUnavailable(body, status);
    const list = Array.isArray(parsed)
      ? parsed
      : isRecord(parsed) && Array.isArray(parsed.voices)
        ? parsed.voices
        : isRecord(parsed) && Array.isArray(parsed.data)
          ? parsed.data
          : undefined;
    if (!list) throw new UnexpectedResponseError({ status, message: 'The speech service sent a voice list in an unknown shape.' });
    return list.map(toVoice).filter((voice): voice is Voice => voice !== undefined);
  }

  return { processText, generateSpeech, submitTranscription, getTranscriptionStatus, listVoices };
}

// ---------------------------------------------------------------------------------------------
// Request bodies
// ---------------------------------------------------------------------------------------------

/** Builds the /process-text body from known fields only, with preprocessType as the JSON string the service requires. */
export function processTextBody(req: ProcessTextRequest): ProcessTextRequest {
  const postData = (req as Partial<ProcessTextRequest> | undefined)?.postData;
  requireText(req?.text, 'text', 'article', 'The article has no text to narrate.');
  if (!isRecord(postData)) throw new ValidationFailedError({ message: 'The narration request has no postData.' });
  requireText(postData.name, 'postData.name', 'article', 'The article has no title.');
  requireText(postData.articleId, 'postData.articleId', 'article', 'The article has no id.');
  requireText(postData.voiceId, 'postData.voiceId', 'article', 'No voice was chosen.');
  requireText(postData.callbackURL, 'postData.callbackURL', 'article', 'No callback URL is configured.');

  const body: ProcessTextRequest = {
    text: req.text,
    postData: {
      name: postData.name,
      articleId: postData.articleId,
      voiceId: postData.voiceId,
      callbackURL: postData.callbackURL,
    },
  };
  const preprocessType = normalisePreprocessType((postData as { preprocessType?: unknown }).preprocessType);
  if (preprocessType !== undefined) body.postData.preprocessType = preprocessType;
  const regenerate = (postData as { regenerate?: unknown }).regenerate;
  if (regenerate !== undefined) {
    if (typeof regenerate !== 'boolean') {
      throw new ValidationFailedError({ message: 'regenerate must be true or false.', details: { field: 'postData.regenerate' } });
    }
    body.postData.regenerate = regenerate;
  }
  return body;
}

/** The service rejects the bare numbers 0 and 2 (spec 2.2), so numbers are turned into their strings. */
function normalisePreprocessType(value: unknown): PreprocessType | undefined {
  if (value === undefined || value === null) return undefined;
  const text = typeof value === 'number' ? String(value) : typeof value === 'string' ? value.trim() : undefined;
  if (text === '0' || text === '2') return text;
  throw new ValidationFailedError({
    message: 'The text preparation mode (preprocessType) must be "0" (verbatim) or "2" (AI preprocessing).',
    details: { field: 'postData.preprocessType' },
  });
}

interface TranscriptionFields {
  language: string;
  outputFormat: TranscriptionOutputFormat;
  contentType: string;
}

const LANGUAGE_TAG = /^[A-Za-z]{2,8}(-[A-Za-z0-9]{1,8})*$/;
const MEDIA_TYPE = /^[A-Za-z0-9][A-Za-z0-9!#$&^_.+-]*\/[A-Za-z0-9][A-Za-z0-9!#$&^_.+-]*$/;

function transcriptionFields(upload: TranscriptionUpload): TranscriptionFields {
  if (!isRecord(upload) || (typeof upload.file !== 'string' && !isReadable(upload.file))) {
    throw new InvalidRequestError({ message: 'No audio file was given to transcribe.' });
  }
  requireText(upload.filename, 'filename', 'general', 'The audio file has no name.');
  const language = upload.language ?? DEFAULT_TRANSCRIPTION_LANGUAGE;
  if (!LANGUAGE_TAG.test(language)) {
    throw new InvalidRequestError({ message: `"${language}" is not a language code such as ar-JO.`, details: { field: 'language' } });
  }
  const outputFormat = upload.outputFormat ?? 'json';
  if (outputFormat !== 'json' && outputFormat !== 'srt') {
    throw new InvalidRequestError({ message: 'The transcription format must be json or srt.', details: { field: 'output_format' } });
  }
  const contentType = upload.contentType ?? audioTypeFromName(upload.filename);
  if (!MEDIA_TYPE.test(contentType)) {
    throw new InvalidRequestError({ message: 'The audio file has an invalid content type.', details: { field: 'contentType' } });
  }
  return { language, outputFormat, contentType };
}

const AUDIO_TYPES: Record<string, string> = {
  mp3: 'audio/mpeg',
  wav: 'audio/wav',
  m4a: 'audio/mp4',
  mp4: 'audio/mp4',
  aac: 'audio/aac',
  ogg: 'audio/ogg',
  oga: 'audio/ogg',
  opus: 'audio/ogg',
  webm: 'audio/webm',
  flac: 'audio/flac',
};

function audioTypeFromName(filename: string): string {
  const extension = /\.([A-Za-z0-9]+)$/.exec(filename)?.[1]?.toLowerCase();
  return (extension !== undefined ? AUDIO_TYPES[extension] : undefined) ?? 'application/octet-stream';
}

/**
 * The fixed parts of a multipart/form-data body: the text fields and the audio part's headers before the
 * file, the closing boundary after it. Text fields come first so a streaming parser has them before the audio.
 */
export function multipartEnvelope(
  boundary: string,
  fields: { language: string; outputFormat: string },
  filename: string,
  contentType: string
): { head: Buffer; tail: Buffer } {
  const head =
    textPart(boundary, 'language', fields.language) +
    textPart(boundary, 'output_format', fields.outputFormat) +
    `--${boundary}\r\n` +
    `Content-Disposition: form-data; name="audio"; filename="${quoteFilename(filename)}"\r\n` +
    `Content-Type: ${contentType}\r\n\r\n`;
  return { head: Buffer.from(head, 'utf8'), tail: Buffer.from(`\r\n--${boundary}--\r\n`, 'utf8') };
}

function textPart(boundary: string, name: string, value: string): string {
  return `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
}

/** As browsers do (WHATWG form encoding): quotes and line breaks percent-escaped, other characters sent as UTF-8. */
function quoteFilename(filename: string): string {
  return filename.replace(/"/g, '%22').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}

// ---------------------------------------------------------------------------------------------
// Responses and failures
// ---------------------------------------------------------------------------------------------

/** The 202 body is "a plain message" in an unspecified shape: JSON with a message, or text. */
function acceptedMessage(body: Buffer, apiKey: string): string {
  const fallback = 'Narration started; the result will be sent to the callback URL.';
  const text = scrubSecret(body.toString('utf8'), apiKey).trim();
  if (text === '') return fallback;
  const parsed = tryParseJson(body);
  if (parsed === undefined) return text.startsWith('<') ? fallback : text.slice(0, 500);
  if (typeof parsed === 'string') return scrubSecret(parsed, apiKey);
  if (isRecord(parsed)) {
    for (const value of [parsed.message, parsed.detail, isRecord(parsed.data) ? parsed.data.message : undefined]) {
      if (typeof value === 'string' && value.trim() !== '') return scrubSecret(value, apiKey);
    }
  }
  return fallback;
}

function parseJsonOrUnavailable(body: Buffer, status: number): unknown {
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

function tryParseJson(body: Buffer): unknown {
  try {
    return JSON.parse(body.toString('utf8'));
  } catch {
    return undefined;
  }
}

/**
 * Turns an axios/network failure into an error without passing the axios error on: its `config`
 * holds the request headers, Authorization included.
 */
function transportError(
  error: unknown,
  context: { origin: string; timeoutMs: number; timedOut: boolean }
): SpeechServiceError {
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

function numericHeader(headers: ResponseHeaders, name: string): number | undefined {
  const value = headerValue(headers, name);
  if (value === undefined || !/^\s*-?\d+(\.\d+)?\s*$/.test(value)) return undefined;
  return Number(value);
}

function toVoice(entry: unknown): Voice | undefined {
  if (!isRecord(entry)) return undefined;
  const rawId = entry.id ?? entry.voice_id ?? entry.voiceId;
  if ((typeof rawId !== 'string' || rawId === '') && typeof rawId !== 'number') return undefined;
  const id = String(rawId);
  const voice: Voice = { id, name: typeof entry.name === 'string' && entry.name !== '' ? entry.name : id };
  if (typeof entry.language === 'string') voice.language = entry.language;
  if (typeof entry.gender === 'string') voice.gender = entry.gender;
  return voice;
}

// ---------------------------------------------------------------------------------------------
// Small helpers
// ---------------------------------------------------------------------------------------------

/** `https://host/prefix/` -> `https://host/prefix`, so `${root}/path` never doubles or loses a slash. */
function serviceRoot(raw: string, name: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new TypeError(`${name} is not a valid URL.`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new TypeError(`${name} must be an http(s) URL.`);
  return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
}

function normalisePath(path: string): string {
  return path.startsWith('/') ? path : `/${path}`;
}

/** Keys with whitespace or control characters cannot go into a header; the message never repeats the key. */
function describeKeyProblem(apiKey: unknown): string | undefined {
  if (typeof apiKey !== 'string' || apiKey === '') {
    return 'No API key is configured for the speech service. Add it in the plugin settings.';
  }
  if (/[\s\x00-\x1f\x7f]/.test(apiKey) || /[^\x21-\x7e]/.test(apiKey)) {
    return 'The configured API key contains spaces or characters that cannot be sent; check it in the plugin settings.';
  }
  return undefined;
}

function requireText(value: unknown, field: string, endpoint: SpeechEndpoint, message: string): asserts value is string {
  if (typeof value === 'string' && value.trim() !== '') return;
  const init = { message, details: { field } };
  throw endpoint === 'article' ? new ValidationFailedError(init) : new InvalidRequestError(init);
}

function toBuffer(data: unknown): Buffer {
  if (Buffer.isBuffer(data)) return data;
  if (data instanceof ArrayBuffer) return Buffer.from(data);
  if (ArrayBuffer.isView(data)) return Buffer.from(data.buffer, data.byteOffset, data.byteLength);
  if (typeof data === 'string') return Buffer.from(data, 'utf8');
  return Buffer.alloc(0);
}

function isReadable(value: unknown): value is NodeJS.ReadableStream {
  return isRecord(value) && typeof (value as { pipe?: unknown }).pipe === 'function';
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
