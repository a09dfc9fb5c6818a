/**
 * Test-side tools for the emulator suite. Everything here is written from the spec, never
 * imported from emulator/ — the tests check the emulator, they do not share its logic.
 */
import { createHash, createHmac } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';

export const API_KEY = 'emulator-dev-key';

/** Spec 5.4, step by step. */
export function expectedSignature(apiKey: string, articleId: string, audioFile: string | null, srtFile: string | null): string {
  const key = createHash('sha256').update(apiKey, 'utf8').digest('hex');
  const message = `${articleId}|${audioFile ?? 'null'}|${srtFile ?? 'null'}`;
  return createHmac('sha256', key).update(message, 'utf8').digest('hex');
}

export interface ReceivedCallback {
  body: any;
  headers: http.IncomingHttpHeaders;
  at: number;
}

export interface CallbackServer {
  url: string;
  received: ReceivedCallback[];
  /** Status the next requests get (default 200). */
  respondWith(status: number): void;
  waitFor(count: number, timeoutMs?: number): Promise<ReceivedCallback[]>;
  close(): Promise<void>;
}

/** A local HTTP server playing the client's callback endpoint. */
export async function startCallbackServer(): Promise<CallbackServer> {
  const received: ReceivedCallback[] = [];
  let status = 200;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      received.push({ body: text ? JSON.parse(text) : null, headers: req.headers, at: Date.now() });
      res.writeHead(status, { 'Content-Type': 'application/json' });
      res.end('{"ok":true}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/speech/callback`,
    received,
    respondWith(next) {
      status = next;
    },
    waitFor: (count, timeoutMs = 15000) => waitUntil(() => (received.length >= count ? received : null), timeoutMs, `${count} callback(s)`),
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

export async function waitUntil<T>(
  probe: () => T | null | undefined | Promise<T | null | undefined>,
  timeoutMs: number,
  what: string
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await sleep(50);
  }
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const NEVER_SAID = ['amber', 'birch', 'cedar', 'delta', 'ember', 'fjord', 'grove', 'heron', 'iris', 'juniper'];

/**
 * n sentences of about 80 characters each (some 0.15 s of synthesis apiece here), for long syntheses.
 * Each call's sentences are new to the speech cache (a random name in each), so eSpeak really says them:
 * a text said before answers from the cache at once, and a test of a synthesis in progress would see none.
 */
export const longText = (n: number) => {
  const name = Array.from({ length: 5 }, () => NEVER_SAID[Math.floor(Math.random() * NEVER_SAID.length)]).join(' ');
  return Array.from({ length: n }, (_, i) => `This is sentence number ${i + 1} of a rather long preview by ${name}.`).join(' ');
};

export interface JsonResponse {
  status: number;
  headers: Headers;
  body: any;
}

export async function requestJson(
  url: string,
  init: { method?: string; apiKey?: string | null; body?: unknown; rawBody?: string; contentType?: string } = {}
): Promise<JsonResponse> {
  const headers: Record<string, string> = {};
  if (init.apiKey !== null) headers.Authorization = `Bearer ${init.apiKey ?? API_KEY}`;
  const body = init.rawBody ?? (init.body === undefined ? undefined : JSON.stringify(init.body));
  if (body !== undefined) headers['Content-Type'] = init.contentType ?? 'application/json';
  const response = await fetch(url, { method: init.method ?? (body === undefined ? 'GET' : 'POST'), headers, body });
  const text = await response.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // not JSON
  }
  return { status: response.status, headers: response.headers, body: parsed };
}

/** A valid /process-text body with overridable postData. */
export function narrationBody(
  articleId: string,
  callbackURL: string,
  overrides: Record<string, unknown> = {},
  text = 'Hello there. This is a short test article.'
) {
  return { text, postData: { name: 'Test article', articleId, voiceId: 'en-male-1', callbackURL, ...overrides } };
}

/* ---------- media checks ---------- */

const MPEG_BITRATES: Record<string, number[]> = {
  v1l3: [0, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320],
  v2l3: [0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160],
};
const MPEG_RATES: Record<number, number[]> = { 3: [44100, 48000, 32000], 2: [22050, 24000, 16000], 0: [11025, 12000, 8000] };

/** Walks MPEG Layer III frames (after an optional ID3v2 tag). */
export function mp3Info(buf: Buffer): { startsWithSyncOrId3: boolean; frames: number; durationSec: number; sampleRate: number } {
  let pos = 0;
  const hasId3 = buf.subarray(0, 3).toString('latin1') === 'ID3';
  if (hasId3) pos = 10 + (((buf[6] & 0x7f) << 21) | ((buf[7] & 0x7f) << 14) | ((buf[8] & 0x7f) << 7) | (buf[9] & 0x7f));
  const startsWithSyncOrId3 = hasId3 || (buf[0] === 0xff && (buf[1] & 0xe0) === 0xe0);
  let frames = 0;
  let durationSec = 0;
  let sampleRate = 0;
  while (pos + 4 <= buf.length && buf[pos] === 0xff && (buf[pos + 1] & 0xe0) === 0xe0) {
    const version = (buf[pos + 1] >> 3) & 3;
    const layer = (buf[pos + 1] >> 1) & 3; // 1 = Layer III
    if (layer !== 1 || version === 1) break;
    const bitrate = (version === 3 ? MPEG_BITRATES.v1l3 : MPEG_BITRATES.v2l3)[buf[pos + 2] >> 4] * 1000;
    sampleRate = MPEG_RATES[version][(buf[pos + 2] >> 2) & 3];
    const samples = version === 3 ? 1152 : 576;
    const length = Math.floor(((samples / 8) * bitrate) / sampleRate) + ((buf[pos + 2] >> 1) & 1);
    if (!bitrate || !sampleRate || length <= 0) break;
    frames++;
    durationSec += samples / sampleRate;
    pos += length;
  }
  return { startsWithSyncOrId3, frames, durationSec, sampleRate };
}

export interface SrtCue {
  index: number;
  start: number;
  end: number;
  text: string;
}

export function parseSrt(text: string): SrtCue[] {
  const toSec = (t: string) => {
    const [h, m, rest] = t.split(':');
    const [s, ms] = rest.split(',');
    return Number(h) * 3600 + Number(m) * 60 + Number(s) + Number(ms) / 1000;
  };
  return text
    .trim()
    .split(/\r?\n\r?\n/)
    .map((block) => {
      const [index, times, ...lines] = block.split(/\r?\n/);
      const [start, end] = times.split(' --> ');
      return { index: Number(index), start: toSec(start), end: toSec(end), text: lines.join('\n') };
    });
}

/* ---------- multipart uploads (streamed, like a real client would) ---------- */

export interface UploadPart {
  name: string;
  value?: string;
  file?: { filename: string; contentType: string; data?: Buffer; stream?: () => AsyncIterable<Buffer> };
}

/** POSTs multipart/form-data with node:http so large files can be streamed chunk by chunk. */
export function uploadMultipart(url: string, parts: UploadPart[], apiKey: string | null = API_KEY): Promise<JsonResponse> {
  const boundary = `----emulator-test-${Math.random().toString(16).slice(2)}`;
  async function* body(): AsyncIterable<Buffer> {
    for (const part of parts) {
      const disposition = part.file
        ? `form-data; name="${part.name}"; filename="${part.file.filename}"\r\nContent-Type: ${part.file.contentType}`
        : `form-data; name="${part.name}"`;
      yield Buffer.from(`--${boundary}\r\nContent-Disposition: ${disposition}\r\n\r\n`);
      if (part.file?.stream) yield* part.file.stream();
      else yield part.file?.data ?? Buffer.from(part.value ?? '', 'utf8');
      yield Buffer.from('\r\n');
    }
    yield Buffer.from(`--${boundary}--\r\n`);
  }
  return new Promise((resolve, reject) => {
    const headers: http.OutgoingHttpHeaders = { 'Content-Type': `multipart/form-data; boundary=${boundary}` };
    if (apiKey !== null) headers.Authorization = `Bearer ${apiKey}`;
    const req = http.request(url, { method: 'POST', headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        const responseHeaders = new Headers();
        for (const [k, v] of Object.entries(res.headers)) if (typeof v === 'string') responseHeaders.set(k, v);
        resolve({ status: res.statusCode ?? 0, headers: responseHeaders, body: text ? JSON.parse(text) : null });
      });
    });
    req.on('error', reject);
    Readable.from(body()).pipe(req);
  });
}

/** `bytes` zero bytes in 1 MiB chunks, reusing one buffer (no 50 MB allocation). */
export function zeroStream(bytes: number): () => AsyncIterable<Buffer> {
  const chunk = Buffer.alloc(1024 * 1024);
  return async function* () {
    for (let sent = 0; sent < bytes; sent += chunk.length) yield chunk.subarray(0, Math.min(chunk.length, bytes - sent));
  };
}

/** A mono 16-bit PCM WAV: given spans of a 440 Hz tone, silence elsewhere. */
export function toneWav(totalSec: number, toneSpans: Array<[number, number]>, sampleRate = 16000): Buffer {
  const samples = Math.round(totalSec * sampleRate);
  const data = Buffer.alloc(samples * 2);
  for (const [from, to] of toneSpans) {
    for (let i = Math.round(from * sampleRate); i < Math.min(samples, Math.round(to * sampleRate)); i++) {
      data.writeInt16LE(Math.round(Math.sin((2 * Math.PI * 440 * i) / sampleRate) * 12000), i * 2);
    }
  }
  const header = Buffer.alloc(44);
  header.write('RIFF', 0, 'latin1');
  header.writeUInt32LE(36 + data.length, 4);
  header.write('WAVEfmt ', 8, 'latin1');
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20);
  header.writeUInt16LE(1, 22);
  header.writeUInt32LE(sampleRate, 24);
  header.writeUInt32LE(sampleRate * 2, 28);
  header.writeUInt16LE(2, 32);
  header.writeUInt16LE(16, 34);
  header.write('data', 36, 'latin1');
  header.writeUInt32LE(data.length, 40);
  return Buffer.concat([header, data]);
}
