/** STT submit and status (spec 4.2, 4.3, 3.2) and the emulator's honesty rule. */
import { startEmulatorProcess, type EmulatorProcess } from './spawn-emulator';
import {
  narrationBody,
  parseSrt,
  requestJson,
  sleep,
  startCallbackServer,
  toneWav,
  uploadMultipart,
  waitUntil,
  zeroStream,
  type UploadPart,
} from './helpers';

jest.setTimeout(40000);

const OTHER_KEY = 'second-company-key';
let emulator: EmulatorProcess;

beforeAll(async () => {
  emulator = await startEmulatorProcess({
    delayMs: 50,
    apiKeys: ['emulator-dev-key', OTHER_KEY],
    args: ['--stt-queued-ms', '150', '--stt-processing-ms', '150'],
  });
});
afterAll(async () => {
  await emulator?.stop();
});
beforeEach(async () => {
  await emulator.control('reset', { body: {} });
});

const submitUrl = () => `${emulator.webUrl}/api/v1/stt/submit/`;
const statusUrl = (jobId: string) => `${emulator.webUrl}/api/v1/stt/status/${jobId}/`;
const audioPart = (data: Buffer, filename = 'audio.mp3', contentType = 'audio/mpeg'): UploadPart => ({
  name: 'audio',
  file: { filename, contentType, data },
});

async function submit(parts: UploadPart[]) {
  const res = await uploadMultipart(submitUrl(), parts);
  expect(res.status).toBe(200);
  expect(res.body).toEqual({ job_id: expect.any(String), status: 'queued' });
  return res.body.job_id as string;
}

/** Polls like a client: queued/processing -> again; anything else -> done. */
async function pollUntilDone(jobId: string) {
  const seen = new Set<string>();
  const final = await waitUntil(
    async () => {
      const res = await requestJson(statusUrl(jobId));
      expect(res.status).toBe(200);
      seen.add(res.body.status);
      return ['queued', 'processing'].includes(res.body.status) ? null : res.body;
    },
    15000,
    `STT job ${jobId}`
  );
  return { final, seen };
}

async function ttsMp3(text: string, voiceId = 'en-female-1'): Promise<Buffer> {
  const res = await fetch(`${emulator.webUrl}/api/v1/tts/generate`, {
    method: 'POST',
    headers: { Authorization: 'Bearer emulator-dev-key', 'Content-Type': 'application/json' },
    body: JSON.stringify({ text, voice_id: voiceId }),
  });
  expect(res.status).toBe(200);
  return Buffer.from(await res.arrayBuffer());
}

describe('transcribing audio the emulator produced', () => {
  it('returns the exact sentences with real timings (json), passing through queued and processing', async () => {
    const mp3 = await ttsMp3('Good morning everyone. Here is the news.');
    const jobId = await submit([audioPart(mp3)]);
    const { final, seen } = await pollUntilDone(jobId);
    expect(seen.has('processing') || seen.has('queued')).toBe(true);
    expect(final.job_id).toBe(jobId);
    expect(final.status).toBe('completed');
    const segments = final.result.subtitles;
    expect(segments.map((s: { text: string }) => s.text)).toEqual(['Good morning everyone.', 'Here is the news.']);
    expect(segments[0].start).toBe(0);
    expect(segments[0].end).toBeGreaterThan(0.5);
    expect(segments[1].start).toBeGreaterThan(segments[0].end);
  });

  it('recognises its audio even when the upload arrives in tiny chunks (multipart boundaries split anywhere)', async () => {
    const mp3 = await ttsMp3('Chunked upload.');
    async function* tinyChunks() {
      for (let i = 0; i < mp3.length; i += 7) yield mp3.subarray(i, i + 7);
    }
    const jobId = await submit([{ name: 'audio', file: { filename: 'a.mp3', contentType: 'audio/mpeg', stream: tinyChunks } }]);
    const { final } = await pollUntilDone(jobId);
    expect(final.result.subtitles.map((s: { text: string }) => s.text)).toEqual(['Chunked upload.']);
  });

  it('returns exactly the narration SRT for a narration MP3 (srt)', async () => {
    const callbacks = await startCallbackServer();
    try {
      await requestJson(`${emulator.url}/process-text`, {
        body: narrationBody('stt-art', callbacks.url, { voiceId: 'ar-male-1' }, 'هذه جملة أولى. وهذه جملة ثانية!'),
      });
      const [callback] = await callbacks.waitFor(1);
      const mp3 = Buffer.from(await (await fetch(callback.body.response.audioFile)).arrayBuffer());
      const srt = await (await fetch(callback.body.response.srtFile)).text();

      const jobId = await submit([audioPart(mp3), { name: 'output_format', value: 'srt' }, { name: 'language', value: 'ar-JO' }]);
      const { final } = await pollUntilDone(jobId);
      expect(final.status).toBe('completed');
      expect(final.result.subtitles).toBe(srt);
      expect(parseSrt(final.result.subtitles).map((c) => c.text)).toEqual(['هذه جملة أولى.', 'وهذه جملة ثانية!']);
    } finally {
      await callbacks.close();
    }
  });
});

describe('honesty for audio the emulator did not produce', () => {
  it('finds where sound is in a WAV and labels it [speech], never inventing words', async () => {
    const wav = toneWav(4, [
      [0.5, 1.5],
      [2.5, 3.2],
    ]);
    const jobId = await submit([audioPart(wav, 'tone.wav', 'audio/wav')]);
    const { final } = await pollUntilDone(jobId);
    const segments = final.result.subtitles as Array<{ start: number; end: number; text: string }>;
    expect(segments).toHaveLength(2);
    expect(segments.every((s) => s.text === '[speech]')).toBe(true);
    expect(segments[0].start).toBeCloseTo(0.5, 1);
    expect(segments[0].end).toBeCloseTo(1.5, 1);
    expect(segments[1].start).toBeCloseTo(2.5, 1);
    expect(segments[1].end).toBeCloseTo(3.2, 1);
  });

  it('gives a foreign MP3 one untranscribed segment spanning its duration', async () => {
    const mp3 = await ttsMp3('A sentence that will be altered.');
    const altered = Buffer.from(mp3);
    altered[altered.length - 10] ^= 0xff; // same frames, different bytes: not the emulator's file any more
    const jobId = await submit([audioPart(altered)]);
    const { final } = await pollUntilDone(jobId);
    const segments = final.result.subtitles;
    expect(segments).toHaveLength(1);
    expect(segments[0].text).toBe('[untranscribed audio]');
    expect(segments[0].start).toBe(0);
    expect(segments[0].end).toBeGreaterThan(1);
  });
});

describe('submit validation', () => {
  it('rejects an output_format other than json or srt with 400 INVALID_REQUEST', async () => {
    const res = await uploadMultipart(submitUrl(), [audioPart(toneWav(1, [])), { name: 'output_format', value: 'vtt' }]);
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('INVALID_REQUEST');
    expect(res.body.error.details.output_format).toEqual([expect.any(String)]);
  });

  it('requires the audio file and a multipart body', async () => {
    const noAudio = await uploadMultipart(submitUrl(), [{ name: 'language', value: 'ar-JO' }]);
    expect(noAudio.status).toBe(400);
    expect(Object.keys(noAudio.body.error.details)).toEqual(['audio']);

    const json = await requestJson(submitUrl(), { body: { audio: 'x' } });
    expect(json.status).toBe(400);
    expect(json.body.error.code).toBe('INVALID_REQUEST');
  });

  it('answers 413 for a file over 50 MB, streamed (never buffered) by both sides', async () => {
    const res = await uploadMultipart(submitUrl(), [
      { name: 'audio', file: { filename: 'huge.wav', contentType: 'audio/wav', stream: zeroStream(50 * 1024 * 1024 + 1) } },
    ]);
    expect(res.status).toBe(413);
    expect(res.body).toEqual({
      success: false,
      error: { code: 'INVALID_REQUEST', message: expect.any(String), details: { audio: ['File exceeds 50 MB'] } },
    });
    const [logged] = (await emulator.control('requests?route=stt-submit')).requests;
    expect(logged.body.tooLarge).toBe(true);
    expect(logged.body.audioBytesSeen).toBe(50 * 1024 * 1024 + 1);
  });

  it('needs a valid key for submit and status', async () => {
    const submitRes = await uploadMultipart(submitUrl(), [audioPart(toneWav(1, []))], null);
    expect(submitRes.status).toBe(401);
    expect(submitRes.body.error.code).toBe('UNAUTHORIZED');
    const status = await requestJson(statusUrl('whatever'), { apiKey: 'wrong' });
    expect(status.status).toBe(401);
    expect(status.body.error.code).toBe('UNAUTHORIZED');
  });
});

describe('multipart parsing (contract 2.4: the body is checked, not trusted)', () => {
  const BOUNDARY = 'raw-test-boundary';

  /** POSTs bytes exactly as given, so a test can send what no well-behaved client would. */
  async function postRaw(body: Buffer | string, contentType = `multipart/form-data; boundary=${BOUNDARY}`) {
    const res = await fetch(submitUrl(), {
      method: 'POST',
      headers: { Authorization: 'Bearer emulator-dev-key', 'Content-Type': contentType },
      body: typeof body === 'string' ? Buffer.from(body, 'utf8') : body,
    });
    return { status: res.status, body: await res.json() };
  }

  const textPart = (name: string, value: string) => `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
  const filePart = (name: string, filename: string, data: string) =>
    `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"; filename="${filename}"\r\nContent-Type: audio/wav\r\n\r\n${data}\r\n`;
  const closing = `--${BOUNDARY}--\r\n`;

  it('answers 400 "Malformed multipart upload." for a body cut off before its closing boundary, and keeps no file', async () => {
    const res = await postRaw(textPart('language', 'ar-JO') + filePart('audio', 'a.wav', 'RIFF').replace(/\r\n$/, ''));
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      success: false,
      error: { code: 'INVALID_REQUEST', message: 'Malformed multipart upload.', details: { body: [expect.any(String)] } },
    });
    expect((await emulator.control('stt-jobs')).jobs).toEqual([]);
  });

  it('answers 400 with an audio detail for multipart without a boundary, and for other body types', async () => {
    for (const contentType of ['multipart/form-data', 'application/x-www-form-urlencoded', 'text/plain']) {
      const res = await postRaw('audio=x', contentType);
      expect(res.status).toBe(400);
      expect(res.body.error).toEqual({
        code: 'INVALID_REQUEST',
        message: 'The request is invalid.',
        details: { audio: ['Send a multipart/form-data upload with an "audio" file field.'] },
      });
    }
  });

  it('refuses an empty audio file and an audio part that is not a file', async () => {
    const empty = await postRaw(filePart('audio', 'a.wav', '') + closing);
    expect(empty.status).toBe(400);
    expect(empty.body.error.details).toEqual({ audio: ['The audio file is empty.'] });
    const notAFile = await postRaw(textPart('audio', 'RIFF....') + closing);
    expect(notAFile.status).toBe(400);
    expect(notAFile.body.error.details).toEqual({ audio: ['An "audio" file is required.'] });
  });

  it('refuses a text field over 64 KB as malformed', async () => {
    const res = await postRaw(textPart('language', 'a'.repeat(64 * 1024 + 1)) + filePart('audio', 'a.wav', 'RIFF') + closing);
    expect(res.status).toBe(400);
    expect(res.body.error.details).toEqual({ body: ['Field "language" is too large.'] });
  });

  it('uses the first audio file and the first value of each field, logs the rest as ignored, and keeps the file name as sent', async () => {
    const wav = toneWav(1, [[0.2, 0.6]]);
    const name = 'نشرة/الأخبار "1".wav';
    const body = Buffer.concat([
      Buffer.from(textPart('output_format', 'srt') + textPart('output_format', 'vtt')),
      Buffer.from(
        `--${BOUNDARY}\r\nContent-Disposition: form-data; name="audio"; filename="${name.replace(/"/g, '\\"')}"\r\nContent-Type: audio/wav\r\n\r\n`
      ),
      wav,
      Buffer.from(`\r\n${filePart('audio', 'second.wav', 'RIFF')}${filePart('cover', 'c.png', 'PNG')}${closing}`),
    ]);
    const res = await postRaw(body);
    expect(res.status).toBe(200);
    const [logged] = (await emulator.control('requests?route=stt-submit')).requests;
    expect(logged.body.fields).toEqual({ output_format: 'srt' });
    expect(logged.body.ignoredParts).toEqual(['output_format', 'audio', 'cover']);
    expect(logged.body.files).toEqual([
      { field: 'audio', filename: name, contentType: 'audio/wav', bytes: wav.length, sha256: expect.any(String) },
    ]);
    expect(logged.body.audioBytesSeen).toBe(wav.length);
    const { final } = await pollUntilDone(res.body.job_id);
    expect(typeof final.result.subtitles).toBe('string');
  });
});

describe('status', () => {
  it('answers 404 NOT_FOUND for an unknown job and for another company’s job', async () => {
    const unknown = await requestJson(statusUrl('no-such-job'));
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.code).toBe('NOT_FOUND');

    const jobId = await submit([audioPart(toneWav(1, [[0.2, 0.6]]))]);
    const foreign = await requestJson(statusUrl(jobId), { apiKey: OTHER_KEY });
    expect(foreign.status).toBe(404);
  });

  it('defaults language to ar-JO and output_format to json', async () => {
    const jobId = await submit([audioPart(toneWav(1, [[0.2, 0.6]]))]);
    const { jobs } = await emulator.control('stt-jobs');
    expect(jobs.find((j: { job_id: string }) => j.job_id === jobId)).toMatchObject({ language: 'ar-JO', outputFormat: 'json' });
  });

  it('reports an injected failure as status "failed" with an error message', async () => {
    await emulator.control('inject', { body: { kind: 'sttJobFailure', message: 'model overloaded' } });
    const jobId = await submit([audioPart(toneWav(1, [[0.2, 0.6]]))]);
    const { final } = await pollUntilDone(jobId);
    expect(final).toEqual({ job_id: jobId, status: 'failed', error: { code: 'TRANSCRIPTION_FAILED', message: 'model overloaded' } });
  });

  it('answers injected 500s on submit and status, and an injected 429 on status, leaving the job itself alone', async () => {
    await emulator.control('inject', { body: { kind: 'http5xx', target: 'stt-submit' } });
    const failed = await uploadMultipart(submitUrl(), [audioPart(toneWav(1, [[0.2, 0.6]]))]);
    expect(failed.status).toBe(500);
    expect(failed.body.error.code).toBe('INTERNAL_ERROR');
    expect((await emulator.control('stt-jobs')).jobs).toEqual([]);

    const jobId = await submit([audioPart(toneWav(1, [[0.2, 0.6]])), { name: 'language', value: 'en-GB' }]);
    await emulator.control('inject', { body: { kind: 'http5xx', target: 'stt-status' } });
    await emulator.control('inject', { body: { kind: 'rateLimit429', target: 'stt-status', retryAfter: 2 } });
    expect((await requestJson(statusUrl(jobId))).status).toBe(500);
    const limited = await requestJson(statusUrl(jobId));
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('2');
    const { final } = await pollUntilDone(jobId);
    expect(final.status).toBe('completed');
    const { jobs } = await emulator.control('stt-jobs');
    expect(jobs).toEqual([expect.objectContaining({ job_id: jobId, language: 'en-GB', transcriptSource: 'wav-energy' })]);
  });

  it('charges nothing for speech to text until it is priced; then each accepted job, in the credit headers, and a short balance gets 402', async () => {
    const audio = () => [audioPart(toneWav(1, [[0.2, 0.6]]))];
    const balance = async () => (await emulator.control('credits')).credits as number;
    const before = await balance();
    const free = await uploadMultipart(submitUrl(), audio());
    expect(free.status).toBe(200);
    expect(free.headers.get('service-credits-used')).toBeNull();
    expect(await balance()).toBe(before);

    await emulator.control('config', { method: 'PUT', body: { sttCreditsPerJob: 7 } });
    const paid = await uploadMultipart(submitUrl(), audio());
    expect(paid.status).toBe(200);
    expect(paid.headers.get('service-credits-used')).toBe('7');
    expect(paid.headers.get('service-credits-remaining')).toBe(String(before - 7));
    expect(await balance()).toBe(before - 7);

    await emulator.control('credits', { method: 'PUT', body: { credits: 3 } });
    const refused = await uploadMultipart(submitUrl(), audio());
    expect(refused.status).toBe(402);
    expect(refused.body.error.code).toBe('INSUFFICIENT_CREDITS');
    expect(await balance()).toBe(3);
    expect((await emulator.control('stt-jobs')).jobs).toHaveLength(2);
  });

  it('keeps an injected stuck job in processing', async () => {
    await emulator.control('inject', { body: { kind: 'sttStuck' } });
    const jobId = await submit([audioPart(toneWav(1, [[0.2, 0.6]]))]);
    await sleep(700);
    const res = await requestJson(statusUrl(jobId));
    expect(res.body).toEqual({ job_id: jobId, status: 'processing' });
  });
});
