/** The article endpoint (spec 4.1, 3.1, 6, 7.4) against the emulator running as a child process. */
import { startEmulatorProcess, type EmulatorProcess } from './spawn-emulator';
import {
  API_KEY,
  expectedSignature,
  mp3Info,
  narrationBody,
  parseSrt,
  requestJson,
  sleep,
  startCallbackServer,
  waitUntil,
  type CallbackServer,
} from './helpers';

jest.setTimeout(30000);

let emulator: EmulatorProcess;
let callbacks: CallbackServer;

beforeAll(async () => {
  [emulator, callbacks] = await Promise.all([
    startEmulatorProcess({ delayMs: 150, args: ['--callback-retry-delay-ms', '50'] }),
    startCallbackServer(),
  ]);
});
afterAll(async () => {
  await emulator?.stop();
  await callbacks?.close();
});
beforeEach(async () => {
  await emulator.control('reset', { body: {} });
  callbacks.received.length = 0;
  callbacks.respondWith(200);
});

const processText = (body: unknown, apiKey?: string | null) => requestJson(`${emulator.url}/process-text`, { body, apiKey });
const credits = async (): Promise<number> => (await emulator.control('credits')).credits;
const article = async (articleId: string) => (await emulator.control(`articles?articleId=${encodeURIComponent(articleId)}`)).articles[0];
const waitForState = (articleId: string, state: string) =>
  waitUntil(async () => ((await article(articleId))?.state === state ? true : null), 15000, `${articleId} to be ${state}`);

describe('authentication', () => {
  it.each([
    ['no Authorization header', null],
    ['an unknown key', 'not-a-key'],
    ['a revoked key', 'emulator-revoked-key'],
  ])('answers 401 AUTH_FAILED for %s', async (_label, apiKey) => {
    const res = await processText(narrationBody('auth-1', callbacks.url), apiKey);
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ success: false, error: { code: 'AUTH_FAILED', message: expect.any(String) } });
    expect(JSON.stringify(res.body)).not.toContain('not-a-key');
  });
});

describe('validation', () => {
  const fieldErrors = async (body: unknown) => {
    const res = await processText(body);
    expect(res.status).toBe(422);
    expect(res.body.success).toBe(false);
    expect(res.body.error.code).toBe('VALIDATION_ERROR');
    return Object.keys(res.body.error.details);
  };

  it('rejects a missing text and missing postData fields, field by field', async () => {
    expect(await fieldErrors({ postData: narrationBody('v', callbacks.url).postData })).toEqual(['text']);
    expect(await fieldErrors({ text: 'Hi.' })).toEqual(['postData']);
    expect(await fieldErrors({ text: 'Hi.', postData: {} })).toEqual(
      expect.arrayContaining(['postData.name', 'postData.articleId', 'postData.voiceId', 'postData.callbackURL'])
    );
    expect(await fieldErrors(narrationBody('v', callbacks.url, { articleId: 42 }))).toEqual(['postData.articleId']);
    expect(await fieldErrors(narrationBody('v', 'not a url'))).toEqual(['postData.callbackURL']);
    expect(await fieldErrors(narrationBody('v', callbacks.url, { regenerate: 'yes' }))).toEqual(['postData.regenerate']);
  });

  it.each([0, 2])('rejects preprocessType as the bare number %p (it must be a JSON string)', async (value) => {
    const res = await processText(narrationBody('num', callbacks.url, { preprocessType: value }));
    expect(res.status).toBe(422);
    expect(res.body.error.code).toBe('VALIDATION_ERROR');
    expect(res.body.error.details['postData.preprocessType'][0]).toMatch(/string/);
  });

  it('rejects preprocessType values other than "0" and "2"', async () => {
    expect(await fieldErrors(narrationBody('pt', callbacks.url, { preprocessType: '1' }))).toEqual(['postData.preprocessType']);
  });

  it('rejects text over the configured maximum length (counted in code points)', async () => {
    await emulator.control('config', { method: 'PUT', body: { maxTextLength: 10 } });
    expect(await fieldErrors(narrationBody('long', callbacks.url, {}, '🙂'.repeat(11)))).toEqual(['text']);
    // 10 emoji are 20 UTF-16 units but 10 characters: accepted.
    expect((await processText(narrationBody('ok', callbacks.url, {}, '🙂'.repeat(10)))).status).toBe(202);
  });

  it('rejects a body that is not JSON', async () => {
    const res = await requestJson(`${emulator.url}/process-text`, { rawBody: '{oops' });
    expect(res.status).toBe(422);
    expect(res.body.error.code).toBe('VALIDATION_ERROR');
  });

  it('answers 400 INVALID_VOICE_ID for an unknown voice', async () => {
    const res = await processText(narrationBody('voice', callbacks.url, { voiceId: 'xx-nobody-1' }));
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('INVALID_VOICE_ID');
    expect(await credits()).toBe(100000);
  });

  it('answers 403 FORBIDDEN for a voice the key may not use, and charges nothing', async () => {
    const forbidden = await processText(narrationBody('restricted', callbacks.url, { voiceId: 'en-female-1' }), 'emulator-restricted-key');
    expect(forbidden.status).toBe(403);
    expect(forbidden.body.error).toMatchObject({ code: 'FORBIDDEN', message: expect.stringContaining('"en-female-1"') });
    const allowed = await processText(narrationBody('restricted', callbacks.url, { voiceId: 'en-male-1' }), 'emulator-restricted-key');
    expect(allowed.status).toBe(202);
  });
});

describe('narration and its signed callback', () => {
  const text = 'Welcome to the news. The weather is fine today! Will it rain tomorrow? Nobody knows.';

  it('answers 202 at once, charges code points, then POSTs a correctly signed callback with real media', async () => {
    const res = await processText(narrationBody('art-1', callbacks.url, {}, text));
    expect(res.status).toBe(202);
    expect(res.body).toEqual({ success: true, message: 'Processing started; the result will be POSTed to the callback URL.' });
    expect(res.headers.get('service-credits-remaining')).toBe(String(100000 - [...text].length));
    expect(await credits()).toBe(100000 - [...text].length);

    const [callback] = await callbacks.waitFor(1);
    expect(callback.headers['content-type']).toMatch(/application\/json/);
    const { articleId, response } = callback.body;
    expect(articleId).toBe('art-1');
    expect(response.audioFile).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/media\/\w+\.mp3$/);
    expect(response.srtFile).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/media\/\w+\.srt$/);
    expect(response.signature).toBe(expectedSignature(API_KEY, 'art-1', response.audioFile, response.srtFile));

    const audio = await fetch(response.audioFile);
    expect(audio.status).toBe(200);
    expect(audio.headers.get('content-type')).toBe('audio/mpeg');
    const mp3 = mp3Info(Buffer.from(await audio.arrayBuffer()));
    expect(mp3.startsWithSyncOrId3).toBe(true);
    expect(mp3.frames).toBeGreaterThan(50);

    const srtResponse = await fetch(response.srtFile);
    expect(srtResponse.headers.get('content-type')).toBe('application/x-subrip; charset=utf-8');
    const cues = parseSrt(await srtResponse.text());
    // One cue per sentence, the title is not narrated.
    expect(cues.map((c) => c.text)).toEqual([
      'Welcome to the news.',
      'The weather is fine today!',
      'Will it rain tomorrow?',
      'Nobody knows.',
    ]);
    expect(cues.map((c) => c.index)).toEqual([1, 2, 3, 4]);
    expect(cues[0].start).toBe(0);
    for (let i = 0; i < cues.length; i++) {
      expect(cues[i].end - cues[i].start).toBeGreaterThan(0.4); // real speech, not a placeholder
      if (i > 0) expect(cues[i].start).toBeGreaterThan(cues[i - 1].end); // a pause between sentences
    }
    // The last cue ends where the audio ends (the MP3 adds at most a few frames of encoder padding).
    const lastEnd = cues[cues.length - 1].end;
    expect(mp3.durationSec).toBeGreaterThanOrEqual(lastEnd - 0.001);
    expect(mp3.durationSec - lastEnd).toBeLessThan(0.2);
    expect((await article('art-1')).audio.durationSec).toBeCloseTo(lastEnd, 2);
  });

  it('narrates Arabic voices and counts Arabic characters as code points', async () => {
    const arabic = 'مرحبا بكم في نشرة الأخبار. الطقس جميل اليوم؟';
    const res = await processText(narrationBody('ar-1', callbacks.url, { voiceId: 'ar-female-1' }, arabic));
    expect(res.status).toBe(202);
    expect(await credits()).toBe(100000 - [...arabic].length);
    const [callback] = await callbacks.waitFor(1);
    const cues = parseSrt(await (await fetch(callback.body.response.srtFile)).text());
    expect(cues.map((c) => c.text)).toEqual(['مرحبا بكم في نشرة الأخبار.', 'الطقس جميل اليوم؟']);
  });

  it('narrates at most maxNarratedSentences sentences, and the SRT describes exactly that audio', async () => {
    await emulator.control('config', { method: 'PUT', body: { maxNarratedSentences: 2 } });
    await processText(narrationBody('capped', callbacks.url, {}, 'One. Two. Three. Four.'));
    const [callback] = await callbacks.waitFor(1);
    const cues = parseSrt(await (await fetch(callback.body.response.srtFile)).text());
    expect(cues.map((c) => c.text)).toEqual(['One.', 'Two.']);
    expect((await article('capped')).audio).toMatchObject({ sentences: 4, narratedSentences: 2, truncated: true });
    // Credits are for the whole text all the same.
    expect(await credits()).toBe(100000 - 'One. Two. Three. Four.'.length);
  });

  it('answers 409 ALREADY_PROCESSING while the article is being generated', async () => {
    expect((await processText(narrationBody('busy', callbacks.url))).status).toBe(202);
    for (const regenerate of [false, true]) {
      const res = await processText(narrationBody('busy', callbacks.url, { regenerate }));
      expect(res.status).toBe(409);
      expect(res.body.error.code).toBe('ALREADY_PROCESSING');
    }
    await callbacks.waitFor(1);
  });

  it('re-delivers a generated article for free, and regenerates (charging again) with regenerate: true', async () => {
    const body = narrationBody('again', callbacks.url);
    const cost = [...body.text].length;
    await processText(body);
    const [first] = await callbacks.waitFor(1);
    await waitForState('again', 'generated');
    expect(await credits()).toBe(100000 - cost);

    const redelivery = await processText(body);
    expect(redelivery.status).toBe(202);
    const [, second] = await callbacks.waitFor(2);
    expect(second.body).toEqual(first.body);
    expect(await credits()).toBe(100000 - cost);

    const regenerate = await processText(narrationBody('again', callbacks.url, { regenerate: true }));
    expect(regenerate.status).toBe(202);
    const [, , third] = await callbacks.waitFor(3);
    expect(third.body.response.audioFile).not.toBe(first.body.response.audioFile);
    expect(third.body.response.signature).toBe(
      expectedSignature(API_KEY, 'again', third.body.response.audioFile, third.body.response.srtFile)
    );
    expect(await credits()).toBe(100000 - 2 * cost);
    expect((await article('again')).generation).toBe(2);
  });

  it('charges twice the characters for preprocessType "2"', async () => {
    const body = narrationBody('double', callbacks.url, { preprocessType: '2' });
    const res = await processText(body);
    expect(res.status).toBe(202);
    expect(await credits()).toBe(100000 - 2 * [...body.text].length);
    await callbacks.waitFor(1);
  });

  it('sends the callback to the most recent callbackURL of the company', async () => {
    const other = await startCallbackServer();
    try {
      await processText(narrationBody('first', callbacks.url));
      await processText(narrationBody('second', other.url));
      const received = await other.waitFor(2);
      expect(received.map((c) => c.body.articleId).sort()).toEqual(['first', 'second']);
      expect(callbacks.received).toHaveLength(0);
    } finally {
      await other.close();
    }
  });
});

describe('credits and rate limiting', () => {
  it('answers 402 INSUFFICIENT_CREDITS with details and headers, charging nothing', async () => {
    await emulator.control('credits', { method: 'PUT', body: { credits: 5 } });
    const body = narrationBody('poor', callbacks.url);
    const required = [...body.text].length;
    const res = await processText(body);
    expect(res.status).toBe(402);
    expect(res.body.error).toEqual({
      code: 'INSUFFICIENT_CREDITS',
      message: expect.any(String),
      details: { credits_remaining: 5, credits_required: required },
    });
    expect(res.headers.get('service-credits-remaining')).toBe('5');
    expect(res.headers.get('service-credits-used')).toBe(String(required));
    expect(await credits()).toBe(5);
    expect(await article('poor')).toBeUndefined();
  });

  it('answers 429 with Retry-After and RateLimit-Reset past the configured rate', async () => {
    await emulator.control('config', { method: 'PUT', body: { rateLimit: { requests: 2, windowSec: 60 } } });
    expect((await processText(narrationBody('r1', callbacks.url))).status).toBe(202);
    expect((await processText(narrationBody('r2', callbacks.url))).status).toBe(202);
    const res = await processText(narrationBody('r3', callbacks.url));
    expect(res.status).toBe(429);
    expect(res.body.error.code).toBe('RATE_LIMIT_EXCEEDED');
    expect(res.body.error.details).toEqual({ credits_remaining: await credits(), reset_after: expect.any(Number) });
    const retryAfter = Number(res.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(Number(res.headers.get('ratelimit-reset'))).toBeGreaterThanOrEqual(Math.floor(Date.now() / 1000));
    await callbacks.waitFor(2);
  });

  it('answers an injected 429 with the requested Retry-After', async () => {
    await emulator.control('inject', { body: { kind: 'rateLimit429', target: 'process-text', retryAfter: 7 } });
    const res = await processText(narrationBody('r', callbacks.url));
    expect(res.status).toBe(429);
    expect(res.headers.get('retry-after')).toBe('7');
    expect(res.body.error.details.reset_after).toBe(7);
    expect((await processText(narrationBody('r', callbacks.url))).status).toBe(202);
    await callbacks.waitFor(1);
  });

  it('answers injected 500 INTERNAL_ERROR for the next N requests only', async () => {
    await emulator.control('inject', { body: { kind: 'http5xx', target: 'process-text', count: 2 } });
    for (let i = 0; i < 2; i++) {
      const res = await processText(narrationBody('boom', callbacks.url));
      expect(res.status).toBe(500);
      expect(res.body.error.code).toBe('INTERNAL_ERROR');
    }
    expect((await processText(narrationBody('boom', callbacks.url))).status).toBe(202);
    await callbacks.waitFor(1);
  });
});

describe('failures', () => {
  it('noAudio: callback with nulls signed over "id|null|null", state failed, credits refunded; then re-delivery and regeneration', async () => {
    await emulator.control('inject', { body: { kind: 'noAudio', articleId: 'silent' } });
    expect((await processText(narrationBody('silent', callbacks.url))).status).toBe(202);
    const [callback] = await callbacks.waitFor(1);
    expect(callback.body).toEqual({
      articleId: 'silent',
      response: { audioFile: null, srtFile: null, signature: expectedSignature(API_KEY, 'silent', null, null) },
    });
    await waitForState('silent', 'failed');
    expect(await credits()).toBe(100000);

    // failed + regenerate false: the stored (empty) result is re-delivered, free.
    expect((await processText(narrationBody('silent', callbacks.url))).status).toBe(202);
    const [, again] = await callbacks.waitFor(2);
    expect(again.body).toEqual(callback.body);
    expect(await credits()).toBe(100000);

    // failed + regenerate true: a new generation.
    expect((await processText(narrationBody('silent', callbacks.url, { regenerate: true }))).status).toBe(202);
    const [, , fresh] = await callbacks.waitFor(3);
    expect(fresh.body.response.audioFile).toMatch(/\.mp3$/);
    await waitForState('silent', 'generated');
  });

  it('generation failure: null callback and refund; with a refund failure the credits stay deducted', async () => {
    await emulator.control('config', { method: 'PUT', body: { generationFailure: true } });
    await processText(narrationBody('fail-1', callbacks.url));
    const [first] = await callbacks.waitFor(1);
    expect(first.body.response).toEqual({ audioFile: null, srtFile: null, signature: expectedSignature(API_KEY, 'fail-1', null, null) });
    await waitForState('fail-1', 'failed');
    expect(await credits()).toBe(100000);

    await emulator.control('inject', { body: { kind: 'refundFailure', articleId: 'fail-2' } });
    const body = narrationBody('fail-2', callbacks.url);
    await processText(body);
    await callbacks.waitFor(2);
    await waitForState('fail-2', 'failed');
    expect(await credits()).toBe(100000 - [...body.text].length);
    const events = (await emulator.control('events?articleId=fail-2')).events.map((e: { type: string }) => e.type);
    expect(events).toEqual(expect.arrayContaining(['PROCESSING_ERROR', 'REFUND_FAILED']));
  });

  it('answers 422 PROCESSING_ERROR (refunded) or 422 REFUND_FAILED (not refunded) synchronously when injected', async () => {
    await emulator.control('inject', { body: { kind: 'syncProcessingError' } });
    const failed = await processText(narrationBody('sync-1', callbacks.url));
    expect(failed.status).toBe(422);
    expect(failed.body.error.code).toBe('PROCESSING_ERROR');
    expect(await credits()).toBe(100000);

    await emulator.control('inject', { body: { kind: 'syncRefundFailed' } });
    const body = narrationBody('sync-2', callbacks.url);
    const notRefunded = await processText(body);
    expect(notRefunded.status).toBe(422);
    expect(notRefunded.body.error.code).toBe('REFUND_FAILED');
    expect(await credits()).toBe(100000 - [...body.text].length);
    expect((await article('sync-2')).state).toBe('failed');
  });
});

describe('callback delivery', () => {
  it('retries a failing callback host, then marks the article failed and refunds; the stored result is re-delivered later', async () => {
    await emulator.control('config', { method: 'PUT', body: { callbackRetries: 2 } });
    callbacks.respondWith(503);
    const body = narrationBody('unlucky', callbacks.url);
    await processText(body);
    await callbacks.waitFor(3);
    await waitForState('unlucky', 'failed');
    const [delivery] = (await emulator.control('callbacks?articleId=unlucky')).callbacks;
    expect(delivery.outcome).toBe('failed');
    expect(delivery.attempts.map((a: { statusCode: number }) => a.statusCode)).toEqual([503, 503, 503]);
    expect(await credits()).toBe(100000);

    callbacks.respondWith(200);
    await processText(body);
    const received = await callbacks.waitFor(4);
    expect(received[3].body.response.audioFile).toMatch(/\.mp3$/);
  });

  it('delivers duplicated callbacks when injected (all identical, concurrently)', async () => {
    await emulator.control('inject', { body: { kind: 'duplicateCallback', times: 3, concurrent: true } });
    await processText(narrationBody('dup', callbacks.url));
    const received = await callbacks.waitFor(3);
    expect(new Set(received.map((c) => JSON.stringify(c.body))).size).toBe(1);
    await sleep(200);
    expect(callbacks.received).toHaveLength(3);
  });

  it('charges and generates but closes the connection without an answer when a lost answer is injected', async () => {
    await emulator.control('inject', { body: { kind: 'lostAnswer', holdMs: 100, articleId: 'lost' } });
    const before = await credits();
    const body = narrationBody('lost', callbacks.url);
    await expect(processText(body)).rejects.toThrow();
    // The client saw nothing, yet the service charged and generated: the callback still comes.
    expect(await credits()).toBeLessThan(before);
    const charged = before - (await credits());
    const [callback] = await callbacks.waitFor(1);
    expect(callback.body.response.audioFile).toMatch(/\.mp3$/);
    // Asking again without regenerate costs nothing and re-delivers the same result.
    const again = await processText(body);
    expect(again.status).toBe(202);
    expect(again.headers.get('service-credits-used')).toBe('0');
    const received = await callbacks.waitFor(2);
    expect(received[1].body.response).toEqual(callback.body.response);
    expect(before - (await credits())).toBe(charged);
  });

  it('delays the callback when a slow callback is injected', async () => {
    await emulator.control('inject', { body: { kind: 'slowCallback', delayMs: 800, articleId: 'slow' } });
    const startedAt = Date.now();
    await processText(narrationBody('slow', callbacks.url));
    const [callback] = await callbacks.waitFor(1);
    expect(callback.at - startedAt).toBeGreaterThanOrEqual(150 + 800);
  });
});
