/** Speech generation (spec 4.4, 7) and the emulator's voice list. */
import { startEmulatorProcess, type EmulatorProcess } from './spawn-emulator';
import { longText, mp3Info, requestJson, sleep } from './helpers';

jest.setTimeout(30000);

let emulator: EmulatorProcess;

beforeAll(async () => {
  emulator = await startEmulatorProcess();
});
afterAll(async () => {
  await emulator?.stop();
});
beforeEach(async () => {
  await emulator.control('reset', { body: {} });
});

const ttsUrl = () => `${emulator.webUrl}/api/v1/tts/generate`;
const tts = (body: unknown, apiKey?: string | null) => requestJson(ttsUrl(), { body, apiKey });
const credits = async (): Promise<number> => (await emulator.control('credits')).credits;
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

describe('voices', () => {
  it('lists Arabic and English voices with id, name, language and gender', async () => {
    const res = await requestJson(`${emulator.webUrl}/api/v1/voices`);
    expect(res.status).toBe(200);
    const { voices } = res.body;
    for (const voice of voices) expect(Object.keys(voice).sort()).toEqual(['gender', 'id', 'language', 'name']);
    const ids = voices.map((v: { id: string }) => v.id);
    expect(ids).toEqual(expect.arrayContaining(['ar-male-1', 'ar-female-1', 'en-male-1', 'en-female-1']));
    expect(new Set(voices.map((v: { language: string }) => v.language))).toEqual(new Set(['ar', 'en']));
  });

  it('needs a key', async () => {
    const res = await requestJson(`${emulator.webUrl}/api/v1/voices`, { apiKey: null });
    expect(res.status).toBe(401);
    expect(res.body.error.code).toBe('UNAUTHORIZED');
  });
});

describe('generate', () => {
  it('returns real MP3 speech and charges one credit per character', async () => {
    const text = 'مرحبا، this is a voice preview. 👋';
    const response = await fetch(ttsUrl(), {
      method: 'POST',
      headers: { Authorization: 'Bearer emulator-dev-key', 'Content-Type': 'application/json' },
      body: JSON.stringify({ text, voice_id: 'en-female-1' }),
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('audio/mpeg');
    const cost = [...text].length;
    expect(response.headers.get('service-credits-used')).toBe(String(cost));
    expect(response.headers.get('service-credits-remaining')).toBe(String(100000 - cost));
    const mp3 = mp3Info(Buffer.from(await response.arrayBuffer()));
    expect(mp3.startsWithSyncOrId3).toBe(true);
    expect(mp3.durationSec).toBeGreaterThan(1);
    expect(await credits()).toBe(100000 - cost);
  });

  it.each([
    ['a missing text', { voice_id: 'en-male-1' }, ['text']],
    ['a missing voice_id', { text: 'Hi.' }, ['voice_id']],
    ['wrong types', { text: 12, voice_id: ['en-male-1'] }, ['text', 'voice_id']],
    ['an invalid voice id format', { text: 'Hi.', voice_id: 'Not A Voice!' }, ['voice_id']],
  ])('answers 400 INVALID_REQUEST for %s, with details per field', async (_label, body, fields) => {
    const res = await tts(body);
    expect(res.status).toBe(400);
    expect(res.body.success).toBe(false);
    expect(res.body.error.code).toBe('INVALID_REQUEST');
    expect(Object.keys(res.body.error.details).sort()).toEqual(fields);
    for (const field of fields) expect(res.body.error.details[field]).toEqual([expect.any(String)]);
  });

  it('answers 400 for text over the maximum length', async () => {
    await emulator.control('config', { method: 'PUT', body: { ttsMaxTextLength: 10 } });
    const res = await tts({ text: 'This is longer than ten.', voice_id: 'en-male-1' });
    expect(res.status).toBe(400);
    expect(Object.keys(res.body.error.details)).toEqual(['text']);
  });

  it.each([
    ['no key', null],
    ['an unknown key', 'nope'],
    ['a revoked key', 'emulator-revoked-key'],
  ])('answers 401 UNAUTHORIZED for %s', async (_label, apiKey) => {
    const res = await tts({ text: 'Hi.', voice_id: 'en-male-1' }, apiKey);
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ success: false, error: { code: 'UNAUTHORIZED', message: expect.any(String) } });
  });

  it('answers 402 with details and credit headers', async () => {
    await emulator.control('credits', { method: 'PUT', body: { credits: 3 } });
    const res = await tts({ text: 'Hello.', voice_id: 'en-male-1' });
    expect(res.status).toBe(402);
    expect(res.body.error).toMatchObject({ code: 'INSUFFICIENT_CREDITS', details: { credits_remaining: 3, credits_required: 6 } });
    expect(res.headers.get('service-credits-remaining')).toBe('3');
    expect(res.headers.get('service-credits-used')).toBe('6');
  });

  it('answers 403 FORBIDDEN for a voice the restricted key may not use', async () => {
    const forbidden = await tts({ text: 'Hi.', voice_id: 'en-female-1' }, 'emulator-restricted-key');
    expect(forbidden.status).toBe(403);
    expect(forbidden.body.error.code).toBe('FORBIDDEN');
    const allowed = await tts({ text: 'Hi.', voice_id: 'en-male-1' }, 'emulator-restricted-key');
    expect(allowed.status).toBe(200);
  });

  it('answers 404 NOT_FOUND with the voice id for an unknown voice', async () => {
    const res = await tts({ text: 'Hi.', voice_id: 'en-male-9' });
    expect(res.status).toBe(404);
    expect(res.body.error).toMatchObject({ code: 'NOT_FOUND', details: { voice_id: 'en-male-9' } });
  });

  it('answers 409 CONCURRENT_REQUEST to a second request while the first is in flight', async () => {
    await emulator.control('config', { method: 'PUT', body: { ttsDelayMs: 500 } });
    const [first, second] = await Promise.all([
      tts({ text: 'First.', voice_id: 'en-male-1' }),
      new Promise((resolve) => setTimeout(resolve, 100)).then(() => tts({ text: 'Second.', voice_id: 'en-male-1' })),
    ]);
    expect(first.status).toBe(200);
    expect(second.status).toBe(409);
    expect(second.body.error.code).toBe('CONCURRENT_REQUEST');
    // Once the first is done, the account may ask again.
    expect((await tts({ text: 'Third.', voice_id: 'en-male-1' })).status).toBe(200);
  });

  it('answers injected 429 and 500 with the general error body', async () => {
    await emulator.control('inject', { body: { kind: 'rateLimit429', target: 'tts', retryAfter: 3 } });
    await emulator.control('inject', { body: { kind: 'http5xx', target: 'tts' } });
    const serverError = await tts({ text: 'Hi.', voice_id: 'en-male-1' });
    expect(serverError.status).toBe(500);
    expect(serverError.body).toEqual({ success: false, error: { code: 'INTERNAL_ERROR', message: expect.any(String) } });
    const limited = await tts({ text: 'Hi.', voice_id: 'en-male-1' });
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('3');
    expect(limited.body.error).toMatchObject({ code: 'RATE_LIMIT_EXCEEDED', details: { credits_remaining: 100000, reset_after: 3 } });
    expect((await tts({ text: 'Hi.', voice_id: 'en-male-1' })).status).toBe(200);
  });
});

describe('synthesis in its worker thread', () => {
  it('keeps answering other requests while it synthesizes', async () => {
    let synthesizing = true;
    const speech = tts({ text: longText(25), voice_id: 'en-male-1' }).finally(() => {
      synthesizing = false;
    });
    const latencies: number[] = [];
    while (synthesizing) {
      const startedAt = performance.now();
      expect((await requestJson(`${emulator.url}/__control/health`)).status).toBe(200);
      latencies.push(performance.now() - startedAt);
      await sleep(20);
    }
    expect((await speech).status).toBe(200);
    expect(latencies.length).toBeGreaterThanOrEqual(5);
    // On the main thread, eSpeak held the event loop a sentence at a time (a median of 170-280 ms here).
    expect(median(latencies)).toBeLessThan(50);
  });

  it('ends a synthesis that a reset interrupts with 500, and synthesizes the next request', async () => {
    const interrupted = tts({ text: longText(40), voice_id: 'en-male-1' });
    await sleep(400);
    await emulator.control('reset', { body: {} });
    const answer = await interrupted;
    expect(answer.status).toBe(500);
    expect(answer.body.error.code).toBe('INTERNAL_ERROR');

    const next = await fetch(ttsUrl(), {
      method: 'POST',
      headers: { Authorization: 'Bearer emulator-dev-key', 'Content-Type': 'application/json' },
      body: JSON.stringify({ text: 'After the reset.', voice_id: 'en-male-1' }),
    });
    expect(next.status).toBe(200);
    expect(mp3Info(Buffer.from(await next.arrayBuffer())).durationSec).toBeGreaterThan(0.5);
  });
});
