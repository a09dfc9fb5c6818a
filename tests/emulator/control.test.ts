/** The control API, CLI/env configuration, the second web port, and the spawn helper itself. */
import { startEmulatorProcess, type EmulatorProcess } from './spawn-emulator';
import { API_KEY, narrationBody, requestJson, startCallbackServer, type CallbackServer } from './helpers';

jest.setTimeout(30000);

describe('control API', () => {
  let emulator: EmulatorProcess;
  let callbacks: CallbackServer;

  beforeAll(async () => {
    [emulator, callbacks] = await Promise.all([startEmulatorProcess({ delayMs: 50 }), startCallbackServer()]);
  });
  afterAll(async () => {
    await emulator?.stop();
    await callbacks?.close();
  });
  beforeEach(async () => {
    await emulator.control('reset', { body: {} });
    callbacks.received.length = 0;
  });

  it('logs every service request with its body and status, and never the API key', async () => {
    const body = narrationBody('logged', callbacks.url);
    await requestJson(`${emulator.url}/process-text`, { body });
    await requestJson(`${emulator.url}/process-text`, { body, apiKey: 'a-wrong-secret' });
    const { requests } = await emulator.control('requests');
    expect(requests).toHaveLength(2);
    const [accepted, rejected] = requests;
    expect(accepted).toMatchObject({
      method: 'POST',
      path: '/process-text',
      route: 'process-text',
      status: 202,
      body,
      auth: { present: true, scheme: 'Bearer', accepted: true, company: expect.stringMatching(/^company-/) },
    });
    expect(accepted.headers.authorization).toBe('[REDACTED]');
    expect(rejected).toMatchObject({ status: 401, errorCode: 'AUTH_FAILED', auth: { present: true, accepted: false, company: null } });
    const everything = JSON.stringify(await emulator.control('requests'));
    expect(everything).not.toContain(API_KEY);
    expect(everything).not.toContain('a-wrong-secret');

    expect((await emulator.control('requests', { method: 'DELETE' })).cleared).toBe(2);
    expect((await emulator.control('requests')).requests).toEqual([]);
  });

  it('shows config without keys, validates changes, and resets to the start-up configuration', async () => {
    const config = await emulator.control('config');
    expect(config.config.generationDelayMs).toBe(50);
    expect(JSON.stringify(config)).not.toContain(API_KEY);
    expect(config.keys.companies.length).toBeGreaterThan(0);

    const bad = await requestJson(`${emulator.url}/__control/config`, { method: 'PUT', body: { generationDelayMs: -1 }, apiKey: null });
    expect(bad.status).toBe(400);
    const unknown = await requestJson(`${emulator.url}/__control/config`, { method: 'PUT', body: { nope: 1 }, apiKey: null });
    expect(unknown.status).toBe(400);

    const updated = await emulator.control('config', {
      method: 'PUT',
      body: { generationDelayMs: 10, rateLimit: { requests: 5, windowSec: 1 } },
    });
    expect(updated.config).toMatchObject({ generationDelayMs: 10, rateLimit: { requests: 5, windowSec: 1 } });

    await emulator.control('credits', { method: 'PUT', body: { credits: 42 } });
    await emulator.control('inject', { body: { kind: 'http5xx' } });
    const reset = await emulator.control('reset', { body: {} });
    expect(reset.config.generationDelayMs).toBe(50);
    expect((await emulator.control('credits')).credits).toBe(100000);
    expect((await emulator.control('inject')).injections).toEqual([]);
  });

  it('sets credits per company by key or for everyone', async () => {
    await emulator.control('credits', { method: 'PUT', body: { credits: 7, apiKey: API_KEY } });
    expect((await emulator.control('credits')).credits).toBe(7);
    await emulator.control('credits', { method: 'PUT', body: { credits: 9 } });
    const { credits, startingCredits } = await emulator.control('credits');
    expect({ credits, startingCredits }).toEqual({ credits: 9, startingCredits: 9 });
  });

  it('validates injections and lists the queued ones', async () => {
    const bad = await requestJson(`${emulator.url}/__control/inject`, { body: { kind: 'meteorStrike' }, apiKey: null });
    expect(bad.status).toBe(400);
    const badTarget = await requestJson(`${emulator.url}/__control/inject`, { body: { kind: 'http5xx', target: 'nowhere' }, apiKey: null });
    expect(badTarget.status).toBe(400);
    const { injection } = await emulator.control('inject', { body: { kind: 'noAudio', articleId: 'x', count: 2 } });
    expect(injection).toMatchObject({ kind: 'noAudio', articleId: 'x', remaining: 2 });
    expect((await emulator.control('inject')).injections).toHaveLength(1);
  });

  it('records callbacks with the target status and replays the last one byte for byte', async () => {
    await requestJson(`${emulator.url}/process-text`, { body: narrationBody('replay', callbacks.url) });
    const [original] = await callbacks.waitFor(1);
    const { callbacks: sent } = await emulator.control('callbacks?articleId=replay');
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({ articleId: 'replay', reason: 'generation', outcome: 'delivered', statusCode: 200, url: callbacks.url });

    const { delivery } = await emulator.control('articles/replay/redeliver', { body: {} });
    expect(delivery).toMatchObject({ reason: 'replay', outcome: 'delivered', statusCode: 200 });
    const [, replayed] = await callbacks.waitFor(2);
    expect(replayed.body).toEqual(original.body);

    const articles = (await emulator.control('articles')).articles;
    expect(articles).toHaveLength(1);
    expect(articles[0]).toMatchObject({ articleId: 'replay', state: 'generated', generation: 1 });
    expect(JSON.stringify(articles)).not.toContain(API_KEY);
  });

  it('serves media files after mediaDelayMs (a slow media host), and at once again when it is 0', async () => {
    await requestJson(`${emulator.url}/process-text`, { body: narrationBody('slow-media', callbacks.url) });
    const [callback] = await callbacks.waitFor(1);
    const audioFile = (callback.body as any).response.audioFile as string;
    await emulator.control('config', { method: 'PUT', body: { mediaDelayMs: 700 } });
    const slowStart = Date.now();
    const slow = await fetch(audioFile);
    await slow.arrayBuffer();
    expect(Date.now() - slowStart).toBeGreaterThanOrEqual(650);
    await emulator.control('config', { method: 'PUT', body: { mediaDelayMs: 0 } });
    const fast = await fetch(audioFile);
    expect(Buffer.from(await fast.arrayBuffer())).toEqual(Buffer.from(await (await fetch(audioFile)).arrayBuffer()));
  });

  it('answers unknown paths with 404 NOT_FOUND in the general error format', async () => {
    const res = await requestJson(`${emulator.url}/api/v2/nothing`);
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ success: false, error: { code: 'NOT_FOUND', message: expect.any(String) } });
  });
});

describe('start-up configuration', () => {
  it('serves web_url endpoints only on the web port when one is requested', async () => {
    const emulator = await startEmulatorProcess({ webPort: true });
    try {
      expect(emulator.webUrl).not.toBe(emulator.url);
      expect((await requestJson(`${emulator.webUrl}/api/v1/voices`)).status).toBe(200);
      expect((await requestJson(`${emulator.url}/api/v1/voices`)).status).toBe(404);
      const wrongHost = await requestJson(`${emulator.webUrl}/process-text`, { body: narrationBody('x', 'http://127.0.0.1:9/cb') });
      expect(wrongHost.status).toBe(404);
      const { requests } = await emulator.control('requests');
      expect(requests.map((r: { server: string; status: number }) => [r.server, r.status])).toEqual([
        ['web', 200],
        ['base', 404],
        ['web', 404],
      ]);
    } finally {
      await emulator.stop();
    }
  });

  it('reads keys and credits from the environment and injections from flags', async () => {
    const emulator = await startEmulatorProcess({
      env: { EMULATOR_API_KEYS: 'env-key-1,env-key-2', EMULATOR_CREDITS: '77' },
      args: ['--http5xx', '1@voices'],
    });
    try {
      const voices = (apiKey: string) => requestJson(`${emulator.webUrl}/api/v1/voices`, { apiKey });
      expect((await voices('env-key-1')).status).toBe(500);
      expect((await voices('env-key-1')).status).toBe(200);
      expect((await voices('env-key-2')).status).toBe(200);
      expect((await voices(API_KEY)).status).toBe(401);
      expect((await emulator.control('credits')).credits).toBe(77);
      expect(emulator.stderr()).not.toContain('env-key-1');
    } finally {
      await emulator.stop();
    }
  });

  it('fails to start with a clear message on a bad flag, and stops cleanly', async () => {
    await expect(startEmulatorProcess({ args: ['--no-such-flag', '1'] })).rejects.toThrow(/unknown option --no-such-flag/);

    const emulator = await startEmulatorProcess();
    await emulator.stop();
    await expect(fetch(`${emulator.url}/__control/health`)).rejects.toThrow();
    await emulator.stop(); // idempotent
  });
});
