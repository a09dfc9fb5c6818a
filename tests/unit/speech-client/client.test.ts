import { createHash, randomBytes } from 'crypto';
import { promises as fs } from 'fs';
import http, { type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'http';
import type { AddressInfo } from 'net';
import os from 'os';
import path from 'path';
import { Readable } from 'stream';
import { inspect } from 'util';

import {
  AlreadyProcessingError,
  AuthFailedError,
  ConcurrentRequestError,
  ForbiddenError,
  InsufficientCreditsError,
  InternalServerError,
  InvalidRequestError,
  InvalidVoiceIdError,
  NotFoundError,
  PayloadTooLargeError,
  ProcessingError,
  RateLimitExceededError,
  RefundFailedError,
  RequestAbortedError,
  SpeechServiceError,
  SpeechServiceUnavailableError,
  UnauthorizedError,
  UnexpectedResponseError,
  ValidationFailedError,
  createSpeechClient,
  type SpeechClient,
} from '../../../server/src/speech-client';

const API_KEY = 'sk_test_SECRET_7f3a9b2c4d';
const MB = 1024 * 1024;

interface Recorded {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

type Handler = (req: IncomingMessage, res: ServerResponse, body: Buffer) => void;

let server: http.Server;
let origin: string;
let requests: Recorded[];
let handler: Handler;
/** When set, the server does not buffer the body: it counts it and hands the count to the handler. */
let countOnly = false;

beforeAll(async () => {
  server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    let bytes = 0;
    req.on('data', (chunk: Buffer) => {
      bytes += chunk.length;
      if (!countOnly) chunks.push(chunk);
    });
    req.on('end', () => {
      const body = countOnly ? Buffer.from(String(bytes)) : Buffer.concat(chunks);
      requests.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
      handler(req, res, body);
    });
    req.on('error', () => undefined);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

beforeEach(() => {
  requests = [];
  countOnly = false;
  handler = (_req, res) => json(res, 200, {});
});

function json(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}

function client(overrides: Partial<Parameters<typeof createSpeechClient>[0]> = {}): SpeechClient {
  return createSpeechClient({ apiKey: API_KEY, baseUrl: origin, webUrl: origin, timeoutMs: 2000, ...overrides });
}

const article = {
  text: 'نص المقال الكامل.',
  postData: { name: 'Title', articleId: 'article-1', voiceId: 'voice-1', callbackURL: 'https://cms.example.com/api/speech/callback' },
};

async function caught(promise: Promise<unknown>): Promise<SpeechServiceError> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(SpeechServiceError);
    const e = error as SpeechServiceError;
    // Whatever went wrong, nothing an error shows or logs may carry the key.
    const everything = `${e.message}\n${e.stack}\n${JSON.stringify(e)}\n${inspect(e, { depth: 10 })}`;
    expect(everything).not.toContain(API_KEY);
    return e;
  }
  throw new Error('expected a rejection');
}

describe('processText', () => {
  it('POSTs the article with the Bearer key and preprocessType as a JSON string, and accepts 202', async () => {
    handler = (_req, res) =>
      json(res, 202, { message: 'Processing started; results go to the callback URL.' }, { 'Service-Credits-Remaining': '9500' });
    const result = await client().processText({
      ...article,
      postData: { ...article.postData, preprocessType: 2 as never, regenerate: true },
    });

    expect(result).toEqual({ accepted: true, message: 'Processing started; results go to the callback URL.', creditsRemaining: 9500 });
    expect(requests).toHaveLength(1);
    const [request] = requests;
    expect(request!.method).toBe('POST');
    expect(request!.url).toBe('/process-text');
    expect(request!.headers.authorization).toBe(`Bearer ${API_KEY}`);
    expect(request!.headers['content-type']).toMatch(/^application\/json/);
    const raw = request!.body.toString('utf8');
    expect(raw).toContain('"preprocessType":"2"');
    expect(JSON.parse(raw)).toEqual({ text: article.text, postData: { ...article.postData, preprocessType: '2', regenerate: true } });
  });

  it('sends no preprocessType when none is given, and a string one unchanged', async () => {
    handler = (_req, res) => json(res, 202, { message: 'ok' });
    await client().processText(article);
    expect(JSON.parse(requests[0]!.body.toString()).postData).not.toHaveProperty('preprocessType');
    await client().processText({ ...article, postData: { ...article.postData, preprocessType: '0' } });
    expect(JSON.parse(requests[1]!.body.toString()).postData.preprocessType).toBe('0');
  });

  it('refuses an invalid preprocessType before sending anything', async () => {
    const error = await caught(client().processText({ ...article, postData: { ...article.postData, preprocessType: 1 as never } }));
    expect(error).toBeInstanceOf(ValidationFailedError);
    expect(requests).toHaveLength(0);
  });

  it('joins a base URL with a path prefix and trailing slashes', async () => {
    handler = (_req, res) => json(res, 202, { message: 'ok' });
    await client({ baseUrl: `${origin}/speech/v0///` }).processText(article);
    expect(requests[0]!.url).toBe('/speech/v0/process-text');
  });

  it('accepts a plain-text 202 and any 2xx, with a fallback message for an empty body', async () => {
    handler = (_req, res) => {
      res.writeHead(202, { 'content-type': 'text/plain' });
      res.end('Processing started');
    };
    expect((await client().processText(article)).message).toBe('Processing started');
    handler = (_req, res) => res.writeHead(200).end();
    const result = await client().processText(article);
    expect(result.accepted).toBe(true);
    expect(result.message).toMatch(/callback/);
  });

  const articleErrors: Array<[number, unknown, new (...args: never[]) => SpeechServiceError]> = [
    [401, { success: false, error: { code: 'AUTH_FAILED', message: 'Invalid API key' } }, AuthFailedError],
    [422, { success: false, error: { code: 'VALIDATION_ERROR', message: 'postData.voiceId is required' } }, ValidationFailedError],
    [400, { code: 'INVALID_VOICE_ID', message: 'voice does not exist' }, InvalidVoiceIdError],
    [409, { error: 'ALREADY_PROCESSING' }, AlreadyProcessingError],
    [422, { success: false, error: { code: 'PROCESSING_ERROR', message: 'failed' } }, ProcessingError],
    [422, { success: false, error: { code: 'REFUND_FAILED', message: 'failed' } }, RefundFailedError],
    [429, 'Too Many Requests', RateLimitExceededError],
    [401, '', AuthFailedError],
    [500, { success: false, error: { code: 'INTERNAL_ERROR', message: 'boom' } }, InternalServerError],
    [503, '<html>down</html>', SpeechServiceUnavailableError],
  ];

  it.each(articleErrors)('maps HTTP %i %j', async (status, body, Class) => {
    handler = (_req, res) => {
      res.writeHead(status, { 'content-type': typeof body === 'string' ? 'text/plain' : 'application/json' });
      res.end(typeof body === 'string' ? body : JSON.stringify(body));
    };
    const error = await caught(client().processText(article));
    expect(error).toBeInstanceOf(Class);
    expect(error.status).toBe(status);
  });

  it('reads Retry-After on a 429 from /process-text', async () => {
    handler = (_req, res) => json(res, 429, { message: 'rate limited' }, { 'Retry-After': '30' });
    const error = await caught(client().processText(article));
    expect(error).toBeInstanceOf(RateLimitExceededError);
    expect(error.retryAfterMs).toBe(30_000);
    expect(error.retryable).toBe(true);
    expect(error.message).toBe('The speech service is rate limiting requests; retrying in 30 s.');
  });

  it('does not follow a redirect (the Bearer key would go along)', async () => {
    handler = (req, res) => {
      if (req.url === '/process-text') {
        res.writeHead(307, { location: `${origin}/elsewhere` });
        res.end();
      } else json(res, 202, { message: 'ok' });
    };
    const error = await caught(client().processText(article));
    expect(error).toBeInstanceOf(UnexpectedResponseError);
    expect(requests.map((r) => r.url)).toEqual(['/process-text']);
  });
});

describe('generateSpeech', () => {
  it('POSTs {text, voice_id} and returns the audio bytes with the credit headers', async () => {
    const audio = Buffer.concat([Buffer.from('ID3'), randomBytes(10_000)]);
    handler = (_req, res) => {
      res.writeHead(200, { 'content-type': 'audio/mpeg', 'service-credits-remaining': '880', 'service-credits-used': '12' });
      res.end(audio);
    };
    const result = await client().generateSpeech({ text: 'Hello', voiceId: 'v-1' });
    expect(result.audio.equals(audio)).toBe(true);
    expect(result.contentType).toBe('audio/mpeg');
    expect(result.creditsRemaining).toBe(880);
    expect(result.creditsUsed).toBe(12);
    expect(requests[0]!.url).toBe('/api/v1/tts/generate');
    expect(requests[0]!.headers.authorization).toBe(`Bearer ${API_KEY}`);
    expect(JSON.parse(requests[0]!.body.toString())).toEqual({ text: 'Hello', voice_id: 'v-1' });
  });

  const generalErrors: Array<[number, string | undefined, new (...args: never[]) => SpeechServiceError]> = [
    [400, 'INVALID_REQUEST', InvalidRequestError],
    [401, 'UNAUTHORIZED', UnauthorizedError],
    [402, 'INSUFFICIENT_CREDITS', InsufficientCreditsError],
    [403, 'FORBIDDEN', ForbiddenError],
    [404, 'NOT_FOUND', NotFoundError],
    [409, 'CONCURRENT_REQUEST', ConcurrentRequestError],
    [429, 'RATE_LIMIT_EXCEEDED', RateLimitExceededError],
    [500, 'INTERNAL_ERROR', InternalServerError],
    [401, undefined, UnauthorizedError],
    [502, undefined, SpeechServiceUnavailableError],
  ];

  it.each(generalErrors)('maps HTTP %i %s, decoding the JSON from the binary response', async (status, code, Class) => {
    handler = (_req, res) => json(res, status, code ? { success: false, error: { code, message: 'nope' } } : { oops: true });
    const error = await caught(client().generateSpeech({ text: 'Hello', voiceId: 'v-1' }));
    expect(error).toBeInstanceOf(Class);
    expect(error.status).toBe(status);
  });

  it('reads 402 credits from the headers', async () => {
    handler = (_req, res) =>
      json(
        res,
        402,
        { success: false, error: { code: 'INSUFFICIENT_CREDITS', message: 'Insufficient credits' } },
        {
          'Service-Credits-Remaining': '300',
          'Service-Credits-Used': '1200',
        }
      );
    const error = await caught(client().generateSpeech({ text: 'Hello', voiceId: 'v-1' }));
    expect(error.creditsRemaining).toBe(300);
    expect(error.creditsRequired).toBe(1200);
    expect(error.message).toMatch(/^Not enough credits: 1,200 needed, 300 left\./);
  });

  it('reads 429 Retry-After as an HTTP-date', async () => {
    handler = (_req, res) =>
      json(
        res,
        429,
        { success: false, error: { code: 'RATE_LIMIT_EXCEEDED', message: 'slow' } },
        {
          'Retry-After': new Date(Date.now() + 120_000).toUTCString(),
        }
      );
    const error = await caught(client().generateSpeech({ text: 'Hello', voiceId: 'v-1' }));
    expect(error.retryAfterMs).toBeGreaterThan(115_000);
    expect(error.retryAfterMs).toBeLessThanOrEqual(120_000);
  });

  it('scrubs the key if the service echoes it back', async () => {
    handler = (_req, res) => json(res, 400, { success: false, error: { code: 'INVALID_REQUEST', message: `Key ${API_KEY} is malformed` } });
    const error = await caught(client().generateSpeech({ text: 'Hello', voiceId: 'v-1' }));
    expect(error.message).toContain('[redacted]');
  });

  it('reads a 2xx error body in the general format as that error, with a server-error status', async () => {
    handler = (_req, res) => json(res, 200, { success: false, error: { code: 'FORBIDDEN', message: 'Voice not in plan' } });
    const error = await caught(client().generateSpeech({ text: 'Hello', voiceId: 'v-1' }));
    expect(error).toBeInstanceOf(ForbiddenError);
    expect(error.status).toBe(500);
    expect(error.serviceMessage).toBe('Voice not in plan');
  });

  it('refuses a 2xx that carries other JSON instead of audio', async () => {
    handler = (_req, res) => json(res, 200, { audio: 'elsewhere' });
    const error = await caught(client().generateSpeech({ text: 'Hello', voiceId: 'v-1' }));
    expect(error).toBeInstanceOf(UnexpectedResponseError);
    expect(error.status).toBe(200);
    expect(error.message).toBe('The speech service answered with data instead of audio.');
  });
});

describe('transport failures', () => {
  it('turns a timeout into SpeechServiceUnavailableError', async () => {
    handler = () => undefined; // never answers
    const started = Date.now();
    const error = await caught(client({ timeoutMs: 300 }).getTranscriptionStatus('job-1'));
    expect(error).toBeInstanceOf(SpeechServiceUnavailableError);
    expect(error.retryable).toBe(true);
    expect(error.details?.reason).toBe('TIMEOUT');
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it('turns a refused connection into SpeechServiceUnavailableError without the key or headers', async () => {
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const error = await caught(client({ webUrl: `http://127.0.0.1:${port}` }).listVoices());
    expect(error).toBeInstanceOf(SpeechServiceUnavailableError);
    expect(error.message).not.toMatch(/authorization|bearer/i);
  });

  it('treats an unreadable 2xx body as SpeechServiceUnavailableError', async () => {
    handler = (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end('<html>maintenance</html>');
    };
    expect(await caught(client().getTranscriptionStatus('job-1'))).toBeInstanceOf(SpeechServiceUnavailableError);
  });

  it('says whether the service may have acted on a request it did not answer', async () => {
    // Sent, then no answer in time: may have been acted on.
    handler = () => undefined;
    expect((await caught(client({ timeoutMs: 300 }).processText(article))).outcomeUnknown).toBe(true);
    // Received whole, then the connection dropped without an answer.
    handler = (req) => req.on('end', () => req.socket.destroy()).resume();
    const reset = await caught(client().processText(article));
    expect(reset).toBeInstanceOf(SpeechServiceUnavailableError);
    expect(reset.outcomeUnknown).toBe(true);
    // A server error says nothing about what was done before it.
    handler = (_req, res) => json(res, 500, { success: false, error: { code: 'INTERNAL_ERROR', message: 'boom' } });
    expect((await caught(client().processText(article))).outcomeUnknown).toBe(true);
    handler = (_req, res) => json(res, 503, { detail: 'maintenance' });
    expect((await caught(client().processText(article))).outcomeUnknown).toBe(true);
    // Refused connections, rate limiting and contract errors cannot have started anything.
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    expect((await caught(client({ baseUrl: `http://127.0.0.1:${port}` }).processText(article))).outcomeUnknown).toBe(false);
    handler = (_req, res) =>
      json(res, 429, { success: false, error: { code: 'RATE_LIMIT_EXCEEDED', message: 'slow' } }, { 'retry-after': '3' });
    expect((await caught(client().processText(article))).outcomeUnknown).toBe(false);
    handler = (_req, res) => json(res, 409, { success: false, error: { code: 'ALREADY_PROCESSING', message: 'busy' } });
    expect((await caught(client().processText(article))).outcomeUnknown).toBe(false);
  });

  it('fails every call plainly when no key is configured, without sending', async () => {
    const error = await caught(client({ apiKey: '' }).processText(article));
    expect(error).toBeInstanceOf(AuthFailedError);
    expect(error.message).toMatch(/No API key/);
    expect(requests).toHaveLength(0);
  });

  it('does not expose the key on the client object', () => {
    expect(inspect(client(), { depth: 10 })).not.toContain(API_KEY);
  });
});

describe('getTranscriptionStatus', () => {
  it('GETs the encoded job path and returns the job', async () => {
    handler = (_req, res) =>
      json(res, 200, { job_id: 'a/b c', status: 'completed', result: { subtitles: [{ start: 0, end: 1, text: 'مرحبا' }] } });
    const job = await client({ webUrl: `${origin}/` }).getTranscriptionStatus('a/b c');
    expect(requests[0]!.method).toBe('GET');
    expect(requests[0]!.url).toBe('/api/v1/stt/status/a%2Fb%20c/');
    expect(requests[0]!.headers.authorization).toBe(`Bearer ${API_KEY}`);
    expect(job).toEqual({ job_id: 'a/b c', status: 'completed', result: { subtitles: [{ start: 0, end: 1, text: 'مرحبا' }] } });
  });

  it('passes unknown statuses through for the caller to treat as failure', async () => {
    handler = (_req, res) => json(res, 200, { status: 'failed' });
    expect(await client().getTranscriptionStatus('j')).toEqual({ job_id: 'j', status: 'failed' });
  });

  it('rejects a completed job without a result', async () => {
    handler = (_req, res) => json(res, 200, { job_id: 'j', status: 'completed' });
    expect(await caught(client().getTranscriptionStatus('j'))).toBeInstanceOf(UnexpectedResponseError);
  });
});

describe('listVoices', () => {
  it('accepts {voices: [...]} on the default path', async () => {
    handler = (_req, res) =>
      json(res, 200, { voices: [{ id: 'v1', name: 'Layla', language: 'ar', gender: 'female', extra: 1 }, { name: 'no id' }] });
    expect(await client().listVoices()).toEqual([{ id: 'v1', name: 'Layla', language: 'ar', gender: 'female' }]);
    expect(requests[0]!.url).toBe('/api/v1/voices');
  });

  it('accepts a bare array on a configured path', async () => {
    handler = (_req, res) => json(res, 200, [{ id: 7, name: 'Omar' }]);
    expect(await client({ voicesPath: '/voices/' }).listVoices()).toEqual([{ id: '7', name: 'Omar' }]);
    expect(requests[0]!.url).toBe('/voices/');
  });

  it('rejects another shape', async () => {
    handler = (_req, res) => json(res, 200, { items: [] });
    expect(await caught(client().listVoices())).toBeInstanceOf(UnexpectedResponseError);
  });
});

describe('submitTranscription', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'speech-client-test-'));
  });
  afterEach(async () => {
    await fs.rm(dir, { recursive: true, force: true });
  });

  function parseMultipart(body: Buffer, contentType: string) {
    const boundary = /boundary=(.+)$/.exec(contentType)![1]!;
    const delimiter = Buffer.from(`--${boundary}`);
    expect(body.subarray(body.length - delimiter.length - 4).toString()).toBe(`--${boundary}--\r\n`);
    const parts: Array<{ headers: string; content: Buffer }> = [];
    let position = body.indexOf(delimiter);
    expect(position).toBe(0);
    for (;;) {
      const next = body.indexOf(delimiter, position + delimiter.length);
      if (next === -1) break;
      const part = body.subarray(position + delimiter.length + 2, next - 2);
      const headerEnd = part.indexOf('\r\n\r\n');
      parts.push({ headers: part.subarray(0, headerEnd).toString('utf8'), content: part.subarray(headerEnd + 4) });
      position = next;
    }
    const field = (name: string) => parts.find((p) => p.headers.includes(`name="${name}"`));
    return { parts, field };
  }

  const sha = (data: Buffer) => createHash('sha256').update(data).digest('hex');

  it('streams a file from a path as multipart/form-data with a Content-Length', async () => {
    const audio = randomBytes(3 * MB + 17);
    const file = path.join(dir, 'interview.mp3');
    await fs.writeFile(file, audio);
    handler = (_req, res) => json(res, 200, { job_id: 'job-42' });
    const progress: number[] = [];

    const result = await client().submitTranscription(
      { file, filename: 'interview "final".mp3', language: 'en-US', outputFormat: 'srt' },
      { onUploadProgress: (sent) => progress.push(sent) }
    );

    expect(result).toEqual({ jobId: 'job-42' });
    const [request] = requests;
    expect(request!.method).toBe('POST');
    expect(request!.url).toBe('/api/v1/stt/submit/');
    expect(request!.headers.authorization).toBe(`Bearer ${API_KEY}`);
    expect(Number(request!.headers['content-length'])).toBe(request!.body.length);
    const { parts, field } = parseMultipart(request!.body, request!.headers['content-type']!);
    expect(parts).toHaveLength(3);
    expect(field('language')!.content.toString()).toBe('en-US');
    expect(field('output_format')!.content.toString()).toBe('srt');
    const audioPart = field('audio')!;
    expect(audioPart.headers).toContain('filename="interview %22final%22.mp3"');
    expect(audioPart.headers).toContain('Content-Type: audio/mpeg');
    expect(audioPart.content.length).toBe(audio.length);
    expect(sha(audioPart.content)).toBe(sha(audio));
    expect(progress.length).toBeGreaterThan(1);
    expect(progress[progress.length - 1]).toBe(audio.length);
  });

  it('reads what a service that charges for speech to text says the job cost', async () => {
    const file = path.join(dir, 'priced.mp3');
    await fs.writeFile(file, randomBytes(1000));
    handler = (_req, res) => json(res, 200, { job_id: 'priced' }, { 'service-credits-used': '7', 'service-credits-remaining': '993' });
    expect(await client().submitTranscription({ file, filename: 'priced.mp3' })).toEqual({
      jobId: 'priced',
      creditsUsed: 7,
      creditsRemaining: 993,
    });
  });

  it('streams a stream of known size, defaults language ar-JO and json', async () => {
    const audio = randomBytes(256 * 1024);
    handler = (_req, res) => json(res, 201, { job_id: 99 });
    const result = await client().submitTranscription({
      file: Readable.from([audio.subarray(0, 1000), audio.subarray(1000)]),
      filename: 'a.wav',
      size: audio.length,
    });
    expect(result).toEqual({ jobId: '99' });
    const request = requests[0]!;
    expect(Number(request.headers['content-length'])).toBe(request.body.length);
    const { field } = parseMultipart(request.body, request.headers['content-type']!);
    expect(field('language')!.content.toString()).toBe('ar-JO');
    expect(field('output_format')!.content.toString()).toBe('json');
    expect(field('audio')!.headers).toContain('Content-Type: audio/wav');
    expect(sha(field('audio')!.content)).toBe(sha(audio));
  });

  it('sends a stream of unknown size chunked', async () => {
    const audio = randomBytes(100_000);
    handler = (_req, res) => json(res, 200, { job_id: 'j' });
    await client().submitTranscription({ file: Readable.from([audio]), filename: 'a.m4a', contentType: 'audio/x-m4a' });
    const request = requests[0]!;
    expect(request.headers['transfer-encoding']).toBe('chunked');
    const { field } = parseMultipart(request.body, request.headers['content-type']!);
    expect(field('audio')!.headers).toContain('Content-Type: audio/x-m4a');
    expect(sha(field('audio')!.content)).toBe(sha(audio));
  });

  it('refuses more than 50 MB before anything is sent (stated size)', async () => {
    let read = false;
    const file = new Readable({
      read() {
        read = true;
        this.push(null);
      },
    });
    const error = await caught(client().submitTranscription({ file, filename: 'big.mp3', size: 50 * MB + 1 }));
    expect(error).toBeInstanceOf(PayloadTooLargeError);
    expect(error.code).toBe('PAYLOAD_TOO_LARGE');
    expect(error.status).toBe(413);
    expect(read).toBe(false);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(requests).toHaveLength(0);
  });

  it('refuses more than 50 MB before anything is sent (file on disk)', async () => {
    const file = path.join(dir, 'big.mp3');
    const handle = await fs.open(file, 'w');
    await handle.truncate(50 * MB + 1); // sparse: no 50 MB actually written
    await handle.close();
    const error = await caught(client().submitTranscription({ file, filename: 'big.mp3' }));
    expect(error).toBeInstanceOf(PayloadTooLargeError);
    expect(error.message).toMatch(/50 MB/);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(requests).toHaveLength(0);
  });

  it('accepts exactly 50 MB', async () => {
    countOnly = true;
    handler = (_req, res) => json(res, 200, { job_id: 'edge' });
    const file = path.join(dir, 'edge.mp3');
    const handle = await fs.open(file, 'w');
    await handle.truncate(50 * MB);
    await handle.close();
    expect(await client({ timeoutMs: 10_000 }).submitTranscription({ file, filename: 'edge.mp3' })).toEqual({ jobId: 'edge' });
    expect(Number(requests[0]!.body.toString())).toBeGreaterThan(50 * MB);
  }, 20_000);

  it('aborts a stream of unknown size once it passes 50 MB', async () => {
    countOnly = true;
    handler = (_req, res) => json(res, 200, { job_id: 'should-not-happen' });
    let produced = 0;
    const chunk = Buffer.alloc(MB);
    const endless = new Readable({
      read() {
        produced += chunk.length;
        this.push(produced > 60 * MB ? null : chunk);
      },
    });
    const error = await caught(client({ timeoutMs: 10_000 }).submitTranscription({ file: endless, filename: 'endless.mp3' }));
    expect(error).toBeInstanceOf(PayloadTooLargeError);
    expect(error.message).toBe('The audio file is too large: the speech service accepts at most 50 MB.');
    expect(produced).toBeLessThan(55 * MB);
  }, 20_000);

  it('refuses a file path that cannot be read, before anything is sent', async () => {
    const error = await caught(client().submitTranscription({ file: path.join(dir, 'missing.mp3'), filename: 'missing.mp3' }));
    expect(error.code).toBe('UPLOAD_SOURCE_ERROR');
    expect(error.message).toBe('The audio file could not be read for upload.');
    expect(requests).toHaveLength(0);
  });

  it('refuses a stream that is longer than its stated size', async () => {
    const error = await caught(client().submitTranscription({ file: Readable.from([randomBytes(2000)]), filename: 'a.mp3', size: 1000 }));
    expect(error.code).toBe('UPLOAD_SOURCE_ERROR');
  });

  it('honours an abort signal', async () => {
    const controller = new AbortController();
    controller.abort();
    const error = await caught(
      client().submitTranscription({ file: Readable.from([Buffer.alloc(10)]), filename: 'a.mp3' }, { signal: controller.signal })
    );
    expect(error).toBeInstanceOf(RequestAbortedError);
    expect(requests).toHaveLength(0);
  });

  it('maps an error answer of the upload', async () => {
    handler = (_req, res) => json(res, 401, { detail: 'Invalid token.' });
    const error = await caught(client().submitTranscription({ file: Readable.from([Buffer.alloc(10)]), filename: 'a.mp3', size: 10 }));
    expect(error).toBeInstanceOf(UnauthorizedError);
    expect(error.serviceMessage).toBe('Invalid token.');
  });

  it.each([{ ok: true }, { job_id: '' }, { job_id: null }])('rejects an answer without a job id: %j', async (answer) => {
    handler = (_req, res) => json(res, 200, answer);
    expect(
      await caught(client().submitTranscription({ file: Readable.from([Buffer.alloc(10)]), filename: 'a.mp3', size: 10 }))
    ).toBeInstanceOf(UnexpectedResponseError);
  });
});
