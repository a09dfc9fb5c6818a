import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { parseSrt } from '../../server/src/subtitles/srt';
import { startStack, waitFor, type Stack } from './harness';
import { sleep } from './narration-helpers';

/**
 * Speech to text and speech generation on a real Strapi against the emulator (whose STT and TTS
 * live on web_url, a different port from base_url): audio the emulator synthesized is uploaded
 * through the plugin, streamed to the service, polled to completion, and its transcript matches the
 * synthesized text. Oversized uploads are refused before anything goes upstream; a restart while a
 * job is processing resumes polling; failures and TTS errors reach the editor with clear messages.
 */

jest.setTimeout(240_000);

const MB = 1024 * 1024;
const SUBMIT_PATH = '/api/v1/stt/submit/';
const ENGLISH_TEXT = 'The quick brown fox jumps over the lazy dog. Speech to text works end to end.';

let stack: Stack;
/** Strapi's os.tmpdir(): where the body parser writes uploads. It must be empty between requests. */
let strapiTmp: string;
/** How long the emulator keeps an STT job queued, then processing, and how often Strapi polls it. */
const STT_STEP_MS = 300;

beforeAll(async () => {
  strapiTmp = mkdtempSync(path.join(os.tmpdir(), 'speech-it-strapi-tmp-'));
  stack = await startStack({
    env: { SPEECH_STT_POLL_MS: String(STT_STEP_MS), TMPDIR: strapiTmp },
    emulatorArgs: ['--stt-queued-ms', String(STT_STEP_MS), '--stt-processing-ms', String(STT_STEP_MS)],
  });
});

afterAll(async () => {
  await stack?.stop();
  rmSync(strapiTmp, { recursive: true, force: true });
});

// ---------------------------------------------------------------------------------------------
// helpers
// ---------------------------------------------------------------------------------------------

interface LoggedRequest {
  id: number;
  at: string;
  server: 'base' | 'web';
  method: string;
  path: string;
  status: number;
  body: any;
}

async function emulatorLog(pathPrefix?: string): Promise<LoggedRequest[]> {
  const { requests } = await stack.control<{ requests: LoggedRequest[] }>('GET', '/requests');
  return pathPrefix ? requests.filter((entry) => entry.path.startsWith(pathPrefix)) : requests;
}

async function preview(body: Record<string, unknown>) {
  const response = await stack.request('/speech/tts/preview', {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${stack.adminToken}` },
    body: JSON.stringify(body),
  });
  const bytes = Buffer.from(await response.arrayBuffer());
  let json: any = null;
  if (/json/.test(response.headers.get('content-type') ?? '')) json = JSON.parse(bytes.toString('utf8'));
  return { status: response.status, headers: response.headers, bytes, json };
}

async function upload(audio: Buffer, fields: Record<string, string> = {}, filename = 'speech.mp3', type = 'audio/mpeg') {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  form.append('audio', new Blob([new Uint8Array(audio)], { type }), filename);
  const response = await stack.request('/speech/transcriptions', {
    method: 'POST',
    headers: { authorization: `Bearer ${stack.adminToken}` },
    body: form,
  });
  return { status: response.status, body: (await response.json()) as any };
}

async function transcription(id: number) {
  return (await stack.admin('GET', `/speech/transcriptions/${id}`)).body.data;
}

async function waitForTranscription(id: number, statuses: string[], timeoutMs = 30_000) {
  return waitFor(
    async () => {
      const row = await transcription(id);
      return statuses.includes(row.status) ? row : null;
    },
    { timeoutMs, intervalMs: 100, what: `transcription ${id} to be ${statuses.join('|')}` }
  ).catch(async (error) => {
    throw new Error(
      `${error.message}; last: ${JSON.stringify(await transcription(id))}\n--- strapi log tail ---\n${stack.logs().slice(-3000)}`
    );
  });
}

/** Files left in Strapi's temporary directory (formidable writes uploads there as flat files). */
function leftoverTempFiles(): string[] {
  const found: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else found.push(path.relative(strapiTmp, full));
    }
  };
  walk(strapiTmp);
  return found;
}

async function expectNoTempFiles() {
  await waitFor(async () => leftoverTempFiles().length === 0, { timeoutMs: 5_000, what: 'temporary upload files to be removed' }).catch(
    () => {
      throw new Error(`temporary files left behind: ${leftoverTempFiles().join(', ')}`);
    }
  );
}

function drainOrClose(req: http.ClientRequest): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      req.off('drain', done);
      req.off('close', done);
      resolve();
    };
    req.on('drain', done);
    req.on('close', done);
  });
}

/**
 * A multipart upload streamed from one reused 64 KB buffer (nothing the size of the file is
 * allocated). `chunked` leaves out the Content-Length. `abortAfter` destroys the request after
 * that many file bytes. Stops sending as soon as the answer arrives.
 */
function streamUpload(fileBytes: number, opts: { chunked?: boolean; abortAfter?: number; abortWhen?: Promise<unknown> } = {}) {
  const boundary = `----it-${randomBytes(8).toString('hex')}`;
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="language"\r\n\r\nen-US\r\n` +
      `--${boundary}\r\nContent-Disposition: form-data; name="audio"; filename="big.wav"\r\nContent-Type: audio/wav\r\n\r\n`
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  const chunk = Buffer.alloc(64 * 1024, 1);
  const headers: Record<string, string | number> = {
    'content-type': `multipart/form-data; boundary=${boundary}`,
    authorization: `Bearer ${stack.adminToken}`,
  };
  if (!opts.chunked) headers['content-length'] = head.length + fileBytes + tail.length;

  return new Promise<{ status: number; body: any; sentBytes: number } | { aborted: true; sentBytes: number }>((resolve, reject) => {
    let answered = false;
    let sent = 0;
    const req = http.request(`${stack.url}/speech/transcriptions`, { method: 'POST', headers }, (res) => {
      answered = true;
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (part) => (text += part));
      res.on('end', () => {
        resolve({ status: res.statusCode ?? 0, body: text ? JSON.parse(text) : null, sentBytes: sent });
        req.destroy();
      });
    });
    req.on('error', (error) => {
      if (!answered && opts.abortAfter === undefined && opts.abortWhen === undefined) reject(error);
    });
    (async () => {
      if (!req.write(head)) await drainOrClose(req);
      while (sent < fileBytes && !answered) {
        if (opts.abortAfter !== undefined && sent >= opts.abortAfter) {
          req.destroy();
          resolve({ aborted: true, sentBytes: sent });
          return;
        }
        const piece = fileBytes - sent >= chunk.length ? chunk : chunk.subarray(0, fileBytes - sent);
        sent += piece.length;
        if (!req.write(piece)) await drainOrClose(req);
      }
      if (!answered) req.end(tail);
      if (opts.abortWhen) {
        await opts.abortWhen;
        req.destroy();
        resolve({ aborted: true, sentBytes: sent });
      }
    })().catch((error) => {
      if (!answered) reject(error);
    });
  });
}

// ---------------------------------------------------------------------------------------------
// speech generation (voice previews)
// ---------------------------------------------------------------------------------------------

let englishMp3: Buffer;

describe('voice preview (POST /speech/tts/preview)', () => {
  it('returns the audio of a text, from web_url, and serves a repeat from its cache', async () => {
    const first = await preview({ voiceId: 'en-female-1', text: ENGLISH_TEXT });
    expect(first.status).toBe(200);
    expect(first.headers.get('content-type')).toMatch(/^audio\/mpeg/);
    expect(first.headers.get('x-speech-preview-cache')).toBe('miss');
    expect(first.bytes.length).toBeGreaterThan(1000);
    // An MP3: an ID3 tag or a frame sync.
    expect(first.bytes.subarray(0, 3).toString('latin1') === 'ID3' || (first.bytes[0] === 0xff && (first.bytes[1] & 0xe0) === 0xe0)).toBe(
      true
    );
    englishMp3 = first.bytes;

    const tts = (await emulatorLog('/api/v1/tts/generate')).filter((entry) => entry.method === 'POST');
    expect(tts).toHaveLength(1);
    expect(tts[0].server).toBe('web');
    expect(tts[0].body).toEqual({ text: ENGLISH_TEXT, voice_id: 'en-female-1' });

    const again = await preview({ voiceId: 'en-female-1', text: ENGLISH_TEXT });
    expect(again.status).toBe(200);
    expect(again.headers.get('x-speech-preview-cache')).toBe('hit');
    expect(Buffer.compare(again.bytes, first.bytes)).toBe(0);
    expect((await emulatorLog('/api/v1/tts/generate')).filter((entry) => entry.method === 'POST')).toHaveLength(1);
  });

  it('speaks a short sample in the voice language when no text is given', async () => {
    const sample = await preview({ voiceId: 'ar-female-1' });
    expect(sample.status).toBe(200);
    expect(sample.headers.get('x-speech-preview-language')).toBe('ar');
    const text = decodeURIComponent(sample.headers.get('x-speech-preview-text') ?? '');
    expect(text).toMatch(/[\u0600-\u06FF]/);
    const sent = (await emulatorLog('/api/v1/tts/generate')).filter((entry) => entry.method === 'POST').pop();
    expect(sent?.body).toEqual({ text, voice_id: 'ar-female-1' });
  });

  it('maps 402 to a message with the credits needed and remaining', async () => {
    await stack.control('PUT', '/credits', { credits: 0 });
    try {
      const text = 'Twenty-seven characters ok.';
      const refused = await preview({ voiceId: 'en-male-1', text });
      expect(refused.status).toBe(402);
      expect(refused.json.error.details).toMatchObject({
        code: 'INSUFFICIENT_CREDITS',
        creditsRequired: [...text].length,
        creditsRemaining: 0,
      });
      expect(refused.json.error.message).toContain(`${[...text].length} needed, 0 left`);
    } finally {
      await stack.control('PUT', '/credits', { credits: 100_000 });
    }
  });

  it('maps 429 to the wait the service asks for, with Retry-After', async () => {
    await stack.control('POST', '/inject', { kind: 'rateLimit429', target: 'tts', retryAfter: 7 });
    const limited = await preview({ voiceId: 'en-male-1', text: 'Rate limited sentence.' });
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('7');
    expect(limited.json.error.details).toMatchObject({ code: 'RATE_LIMIT_EXCEEDED', retryAfterSeconds: 7 });
    expect(limited.json.error.message).toMatch(/try again in 7 s/i);
  });

  it('maps text over the service limit, an unknown voice and bad input to clear messages', async () => {
    const tooLong = await preview({ voiceId: 'en-male-1', text: 'a'.repeat(6000) });
    expect(tooLong.status).toBe(400);
    expect(tooLong.json.error.details.code).toBe('INVALID_REQUEST');
    expect(tooLong.json.error.message).toMatch(/refused the text/i);

    const unknown = await preview({ voiceId: 'xx-nobody-1', text: 'Hello.' });
    expect(unknown.status).toBe(404);
    expect(unknown.json.error.message).toContain('xx-nobody-1');

    const noVoice = await preview({ text: 'Hello.' });
    expect(noVoice.status).toBe(400);
    expect(noVoice.json.error.name).toBe('ValidationError');
  });

  it('requires an admin session', async () => {
    const response = await stack.request('/speech/tts/preview', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"voiceId":"en-male-1"}',
    });
    expect(response.status).toBe(401);
  });
});

// ---------------------------------------------------------------------------------------------
// speech to text
// ---------------------------------------------------------------------------------------------

describe('transcription', () => {
  let completedId: number;

  it('streams the upload to web_url, polls the job and keeps a transcript matching the synthesized text', async () => {
    expect(englishMp3).toBeDefined();
    // Long enough for several polls even when a loaded machine delays the first: at two steps, a
    // late first poll found the job done and there was no interval to measure.
    await stack.control('PUT', '/config', { sttProcessingMs: 5 * STT_STEP_MS });
    const submitted = await upload(englishMp3, { language: 'en-US', output_format: 'json' }, 'fox.mp3');
    expect(submitted.status).toBe(201);
    const data = submitted.body.data;
    expect(data).toMatchObject({
      fileName: 'fox.mp3',
      fileSize: englishMp3.length,
      language: 'en-US',
      outputFormat: 'json',
      status: 'queued',
      hasResult: false,
    });
    expect(typeof data.jobId).toBe('string');
    expect(data.submittedBy).toMatchObject({ name: expect.any(String) });
    completedId = data.id;

    const submits = (await emulatorLog(SUBMIT_PATH)).filter((entry) => entry.method === 'POST');
    expect(submits).toHaveLength(1);
    expect(submits[0].server).toBe('web');
    expect(submits[0].body.fields).toEqual({ language: 'en-US', output_format: 'json' });
    expect(submits[0].body.files).toEqual([
      expect.objectContaining({
        field: 'audio',
        filename: 'fox.mp3',
        contentType: 'audio/mpeg',
        bytes: englishMp3.length,
        sha256: createHash('sha256').update(englishMp3).digest('hex'),
      }),
    ]);

    const done = await waitForTranscription(completedId, ['completed', 'failed']).finally(() =>
      stack.control('PUT', '/config', { sttProcessingMs: STT_STEP_MS })
    );
    expect(done.status).toBe('completed');
    expect(done.result.format).toBe('json');
    expect(done.result.segments.map((segment: any) => segment.text)).toEqual([
      'The quick brown fox jumps over the lazy dog.',
      'Speech to text works end to end.',
    ]);
    expect(done.result.text).toBe(ENGLISH_TEXT);
    const [first, second] = done.result.segments;
    expect(first.start).toBeGreaterThanOrEqual(0);
    expect(first.end).toBeGreaterThan(first.start);
    expect(second.start).toBeGreaterThanOrEqual(first.end);

    // Polled on web_url, at about the configured interval.
    const polls = (await emulatorLog(`/api/v1/stt/status/${data.jobId}/`)).filter((entry) => entry.method === 'GET');
    expect(polls.length).toBeGreaterThanOrEqual(2);
    expect(polls.every((entry) => entry.server === 'web')).toBe(true);
    const gaps = polls.slice(1).map((entry, i) => Date.parse(entry.at) - Date.parse(polls[i].at));
    expect(Math.min(...gaps)).toBeGreaterThanOrEqual(200);
    await expectNoTempFiles();
  });

  it('downloads the result as SRT, WebVTT and JSON', async () => {
    const row = await transcription(completedId);
    const srtResponse = await stack.request(`/speech/transcriptions/${completedId}/download?format=srt`, {
      headers: { authorization: `Bearer ${stack.adminToken}` },
    });
    expect(srtResponse.status).toBe(200);
    expect(srtResponse.headers.get('content-type')).toMatch(/^application\/x-subrip/);
    expect(srtResponse.headers.get('content-disposition')).toContain('fox.srt');
    const srt = await srtResponse.text();
    expect(parseSrt(srt).map((cue) => cue.text)).toEqual(row.result.segments.map((segment: any) => segment.text));
    expect(parseSrt(srt)[0].startMs).toBe(Math.round(row.result.segments[0].start * 1000));

    const vtt = await stack.request(`/speech/transcriptions/${completedId}/download?format=vtt`, {
      headers: { authorization: `Bearer ${stack.adminToken}` },
    });
    expect(vtt.headers.get('content-type')).toMatch(/^text\/vtt/);
    const vttText = await vtt.text();
    expect(vttText.startsWith('WEBVTT\n')).toBe(true);
    expect(vttText).toContain('The quick brown fox jumps over the lazy dog.');
    expect(vttText).toMatch(/\d{2}:\d{2}:\d{2}\.\d{3} --> /);

    const json = await stack.request(`/speech/transcriptions/${completedId}/download?format=json`, {
      headers: { authorization: `Bearer ${stack.adminToken}` },
    });
    expect(await json.json()).toEqual(row.result.segments);

    const bad = await stack.admin('GET', `/speech/transcriptions/${completedId}/download?format=doc`);
    expect(bad.status).toBe(400);
  });

  it('saves the result to the Media Library once per format', async () => {
    const saved = await stack.admin('POST', `/speech/transcriptions/${completedId}/save`, { format: 'srt' });
    expect(saved.status).toBe(201);
    expect(saved.body.file).toMatchObject({ mime: 'application/x-subrip', name: expect.stringMatching(/\.srt$/) });
    expect(saved.body.data.savedFile.id).toBe(saved.body.file.id);
    const stored = await (await stack.request(saved.body.file.url)).text();
    const download = await (
      await stack.request(`/speech/transcriptions/${completedId}/download?format=srt`, {
        headers: { authorization: `Bearer ${stack.adminToken}` },
      })
    ).text();
    expect(stored).toBe(download);

    const again = await stack.admin('POST', `/speech/transcriptions/${completedId}/save`, { format: 'srt' });
    expect(again.status).toBe(200);
    expect(again.body.created).toBe(false);
    expect(again.body.file.id).toBe(saved.body.file.id);
    await expectNoTempFiles();
  });

  it('asks for SRT when chosen and keeps the raw SRT', async () => {
    const submitted = await upload(englishMp3, { output_format: 'srt' }, 'fox-srt.mp3');
    expect(submitted.status).toBe(201);
    expect(submitted.body.data.language).toBe('ar-JO');
    expect(submitted.body.data.outputFormat).toBe('srt');
    const done = await waitForTranscription(submitted.body.data.id, ['completed', 'failed']);
    expect(done.status).toBe('completed');
    expect(done.result.format).toBe('srt');
    expect(
      parseSrt(done.result.srt)
        .map((cue) => cue.text)
        .join(' ')
    ).toBe(ENGLISH_TEXT);
    const download = await (
      await stack.request(`/speech/transcriptions/${done.id}/download`, { headers: { authorization: `Bearer ${stack.adminToken}` } })
    ).text();
    expect(download.trim()).toBe(done.result.srt.trim());
  });

  it('lists recent transcriptions, newest first, without results', async () => {
    const listed = await stack.admin('GET', '/speech/transcriptions?limit=2');
    expect(listed.status).toBe(200);
    expect(listed.body.data).toHaveLength(2);
    expect(listed.body.data[0].id).toBeGreaterThan(listed.body.data[1].id);
    expect(listed.body.data[0]).not.toHaveProperty('result');
    expect(listed.body.data[1].id).toBe(completedId);
    expect((await stack.admin('GET', '/speech/transcriptions?limit=500')).status).toBe(400);
    expect((await stack.admin('GET', '/speech/transcriptions/999999')).status).toBe(404);
  });

  it('sends and stores a safe name for an upload named with a path and markup, and saves it to the Media Library (issue 9)', async () => {
    const hostile = '../../../etc/<img src=x onerror=alert(1)>.mp3';
    const safe = 'img src=x onerror=alert(1).mp3';
    const submitted = await upload(englishMp3, { language: 'en-US', output_format: 'srt' }, hostile);
    expect(submitted.status).toBe(201);
    expect(submitted.body.data.fileName).toBe(safe);

    const submit = (await emulatorLog(SUBMIT_PATH)).filter((entry) => entry.method === 'POST').pop()!;
    expect(submit.body.files).toEqual([expect.objectContaining({ field: 'audio', filename: safe })]);

    const done = await waitForTranscription(submitted.body.data.id, ['completed', 'failed']);
    expect(done.status).toBe('completed');
    expect(done.fileName).toBe(safe);

    const saved = await stack.admin('POST', `/speech/transcriptions/${done.id}/save`, { format: 'srt' });
    expect(saved.status).toBe(201);
    expect(saved.body.file.name).toBe(`transcription-${done.id}-img src=x onerror=alert(1).srt`);
    expect(saved.body.file.name).not.toMatch(/[<>/\\]/);
    expect((await stack.request(saved.body.file.url)).status).toBe(200);
    await expectNoTempFiles();
  });

  it('surfaces a failed job with its status and reason', async () => {
    await stack.control('POST', '/inject', { kind: 'sttJobFailure', message: 'The audio could not be decoded' });
    const submitted = await upload(englishMp3, { language: 'en-US' }, 'broken.mp3');
    expect(submitted.status).toBe(201);
    const failed = await waitForTranscription(submitted.body.data.id, ['completed', 'failed']);
    expect(failed.status).toBe('failed');
    expect(failed.serviceStatus).toBe('failed');
    expect(failed.errorCode).toEqual(expect.any(String));
    expect(failed.error).toMatch(/could not transcribe the audio \(status "failed"\)/);
    expect(failed.result).toBeNull();
    const download = await stack.admin('GET', `/speech/transcriptions/${failed.id}/download`);
    expect(download.status).toBe(409);
  });

  it('keeps an upload the service failed on as failed, in words that promise no retry', async () => {
    await stack.control('POST', '/inject', { kind: 'http5xx', target: 'stt-submit' });
    const refused = await upload(englishMp3, { language: 'en-US' }, 'server-error.mp3');
    expect(refused.status).toBe(502);
    const message =
      'The speech service had an internal error. Try again in a moment. The request may have reached the speech service anyway.';
    expect(refused.body.error.message).toBe(message);
    const { body } = await stack.admin('GET', '/speech/transcriptions');
    const row = body.data.find((item: any) => item.fileName === 'server-error.mp3');
    expect(row).toMatchObject({ status: 'failed', errorCode: 'INTERNAL_ERROR', error: message });
  });

  it('honours Retry-After when a status poll is rate limited, and says so meanwhile', async () => {
    await stack.control('POST', '/inject', { kind: 'rateLimit429', target: 'stt-status', retryAfter: 2 });
    const submitted = await upload(englishMp3, { language: 'en-US' }, 'limited.mp3');
    expect(submitted.status).toBe(201);
    const { id, jobId } = submitted.body.data;
    const warned = await waitFor(
      async () => {
        const row = await transcription(id);
        return row.pollWarning ? row : null;
      },
      { what: 'the rate-limit warning' }
    );
    expect(warned.pollWarning).toMatch(/rate limiting/);
    expect(['queued', 'processing']).toContain(warned.status);

    const done = await waitForTranscription(id, ['completed', 'failed']);
    expect(done.status).toBe('completed');
    expect(done.pollWarning).toBeNull();
    const polls = (await emulatorLog(`/api/v1/stt/status/${jobId}/`)).filter((entry) => entry.method === 'GET');
    const limited = polls.findIndex((entry) => entry.status === 429);
    expect(limited).toBeGreaterThanOrEqual(0);
    expect(Date.parse(polls[limited + 1].at) - Date.parse(polls[limited].at)).toBeGreaterThanOrEqual(1900);
  });

  it('refuses bad submissions before sending anything upstream', async () => {
    const before = (await emulatorLog(SUBMIT_PATH)).length;
    expect((await upload(englishMp3, { output_format: 'docx' })).status).toBe(400);
    expect((await upload(englishMp3, { language: 'not a language' })).status).toBe(400);
    expect((await upload(Buffer.alloc(0))).status).toBe(400);
    const json = await stack.admin('POST', '/speech/transcriptions', { audio: 'nope' });
    expect(json.status).toBe(400);
    expect(json.body.error.message).toMatch(/multipart/);
    const anonymous = await stack.request('/speech/transcriptions', { method: 'POST', body: new FormData() });
    expect(anonymous.status).toBe(401);
    expect((await emulatorLog(SUBMIT_PATH)).length).toBe(before);
    await expectNoTempFiles();
  });

  it('refuses 51 MB with 413 before anything is sent upstream, with or without a Content-Length', async () => {
    const before = (await emulatorLog(SUBMIT_PATH)).length;
    const rowsBefore = (await stack.admin('GET', '/speech/transcriptions?limit=100')).body.data.length;

    const declared = await streamUpload(51 * MB);
    expect('status' in declared && declared.status).toBe(413);
    if (!('status' in declared)) throw new Error('no answer');
    expect(declared.body.error.details).toMatchObject({ code: 'PAYLOAD_TOO_LARGE', maxBytes: 50 * MB });
    expect(declared.body.error.message).toMatch(/too large.*at most 50 MB/);
    // Refused on its Content-Length, before the body parser read the file.
    expect(declared.body.error.details.sizeBytes).toBeGreaterThan(51 * MB);

    const chunked = await streamUpload(51 * MB, { chunked: true });
    expect('status' in chunked && chunked.status).toBe(413);
    if (!('status' in chunked)) throw new Error('no answer');
    expect(chunked.body.error.details).toMatchObject({ code: 'PAYLOAD_TOO_LARGE', sizeBytes: 51 * MB });
    expect(chunked.body.error.message).toContain('51 MB');

    expect((await emulatorLog(SUBMIT_PATH)).length).toBe(before);
    expect((await stack.admin('GET', '/speech/transcriptions?limit=100')).body.data.length).toBe(rowsBefore);
    await expectNoTempFiles();
  });

  it('removes the temporary file when the editor aborts the upload', async () => {
    const before = (await emulatorLog(SUBMIT_PATH)).length;
    const aborted = await streamUpload(8 * MB, { abortAfter: 4 * MB });
    expect(aborted).toMatchObject({ aborted: true });
    await sleep(300);
    await expectNoTempFiles();
    expect((await emulatorLog(SUBMIT_PATH)).length).toBe(before);
  });

  it('resumes polling after a restart while a job is processing', async () => {
    // Processing outlasts a restart even on a loaded machine (CI saw one take more than 8 s).
    await stack.control('PUT', '/config', { sttQueuedMs: 300, sttProcessingMs: 30_000 });
    try {
      const submitted = await upload(englishMp3, { language: 'en-US' }, 'restart.mp3');
      expect(submitted.status).toBe(201);
      const { id, jobId } = submitted.body.data;
      await waitForTranscription(id, ['processing']);

      await stack.restartStrapi();
      const restartedAt = Date.now();
      const resumed = await transcription(id);
      expect(resumed.status).toBe('processing');

      const done = await waitForTranscription(id, ['completed', 'failed'], 60_000);
      expect(done.status).toBe('completed');
      expect(done.result.text).toBe(ENGLISH_TEXT);
      const pollsAfter = (await emulatorLog(`/api/v1/stt/status/${jobId}/`)).filter((entry) => Date.parse(entry.at) >= restartedAt);
      expect(pollsAfter.length).toBeGreaterThanOrEqual(1);
      // Only one submission for this file: the restart did not send it again.
      const submits = (await emulatorLog(SUBMIT_PATH)).filter((entry) => entry.body?.files?.[0]?.filename === 'restart.mp3');
      expect(submits).toHaveLength(1);
    } finally {
      await stack.control('PUT', '/config', { sttQueuedMs: 300, sttProcessingMs: 300 });
    }
  });

  it('stops sending upstream, records the cancellation and removes the temporary file when the editor leaves mid-upload', async () => {
    // An STT host that reads slowly (about 1 MB/s) and never answers: the upload from Strapi is still going when the editor leaves.
    let arrived!: () => void;
    const upstreamStarted = new Promise<void>((resolve) => (arrived = resolve));
    let upstreamClosed = false;
    let upstreamBytes = 0;
    const stalling = http.createServer((req) => {
      arrived();
      req.on('data', (chunk: Buffer) => {
        upstreamBytes += chunk.length;
        req.pause();
        setTimeout(() => req.resume(), 50);
      });
      req.on('close', () => (upstreamClosed = true));
    });
    await new Promise<void>((resolve) => stalling.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = stalling.address() as import('node:net').AddressInfo;
      await stack.restartStrapi({ SPEECH_WEB_URL: `http://127.0.0.1:${port}` });
      const aborted = await streamUpload(12 * MB, { abortWhen: upstreamStarted.then(() => sleep(300)) });
      expect(aborted).toMatchObject({ aborted: true });

      const row = await waitFor(
        async () => {
          const [latest] = (await stack.admin('GET', '/speech/transcriptions?limit=1')).body.data;
          return latest?.fileName === 'big.wav' && latest.status === 'failed' ? latest : null;
        },
        { what: 'the cancelled upload to be recorded' }
      );
      expect(row.errorCode).toBe('ABORTED');
      expect(row.error).toMatch(/cancelled/);
      await waitFor(async () => upstreamClosed, { timeoutMs: 5_000, what: 'the upstream request to be closed' });
      expect(upstreamBytes).toBeLessThan(12 * MB);
      await expectNoTempFiles();
    } finally {
      stalling.closeAllConnections();
      await new Promise((resolve) => stalling.close(resolve));
    }
  });
});
