import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { blocks, contentManager, startStack, type Stack } from './harness';
import { narrationRow, signCallback, submissionsFor, waitForStatus } from './narration-helpers';

/**
 * A media host that fails once (503) must not cost a new generation: the persisted result is
 * downloaded again after a backoff, and the article completes with one paid submission.
 */

const ARTICLE = 'api::article.article';
jest.setTimeout(180_000);

let stack: Stack;
let files: { mp3: Buffer; srt: string } | null = null;
const hits: Record<string, number> = {};
const flaky = http.createServer((req, res) => {
  const key = req.url ?? '';
  hits[key] = (hits[key] ?? 0) + 1;
  if (hits[key] === 1 || !files) {
    res.writeHead(503).end('busy');
    return;
  }
  if (key.endsWith('.mp3')) res.writeHead(200, { 'content-type': 'audio/mpeg' }).end(files.mp3);
  else res.writeHead(200, { 'content-type': 'application/x-subrip' }).end(files.srt);
});
let origin = '';

beforeAll(async () => {
  await new Promise<void>((resolve) => flaky.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(flaky.address() as AddressInfo).port}`;
  stack = await startStack({ env: (emulator) => ({ SPEECH_MEDIA_HOSTS: `${emulator.url},${origin}` }) });
});

afterAll(async () => {
  await stack?.stop();
  await new Promise((resolve) => flaky.close(resolve));
});

it('downloads a result again after a passing media-host failure, without a new generation', async () => {
  const articles = contentManager(stack, ARTICLE);
  const first = await articles.create({ title: 'Source of the audio', summary: 'Summary.', body: blocks('Body.') }, 'en');
  await articles.publish(first.documentId, 'en');
  await waitForStatus(stack, ARTICLE, first.documentId, 'completed', 'en');
  files = {
    mp3: Buffer.from(await (await fetch(`${stack.url}/api/speech/narrations/${first.documentId}-en/audio.mp3`)).arrayBuffer()),
    srt: await (await fetch(`${stack.url}/api/speech/narrations/${first.documentId}-en/subtitles.srt`)).text(),
  };

  await stack.control('PUT', '/config', { generationDelayMs: 20_000 });
  const target = await articles.create({ title: 'Flaky media host', summary: 'Summary.', body: blocks('Body.') }, 'en');
  await articles.publish(target.documentId, 'en');
  const articleId = `${target.documentId}-en`;
  await waitForStatus(stack, ARTICLE, target.documentId, 'awaiting_callback', 'en');
  const audioFile = `${origin}/flaky.mp3`;
  const srtFile = `${origin}/flaky.srt`;
  const response = await stack.request('/api/speech/callback', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ articleId, response: { audioFile, srtFile, signature: signCallback(articleId, audioFile, srtFile) } }),
  });
  expect(response.status).toBe(200);

  const row = await waitForStatus(stack, ARTICLE, target.documentId, 'completed', 'en');
  await stack.control('PUT', '/config', { generationDelayMs: 300 });
  // Each file fails once: the MP3 on the first attempt, the SRT on the second.
  expect(hits['/flaky.mp3']).toBe(3);
  expect(hits['/flaky.srt']).toBe(2);
  expect(row.audio).toBeTruthy();
  expect((await narrationRow(stack, ARTICLE, target.documentId, 'en')).lastError).toBeNull();
  expect(await submissionsFor(stack, articleId)).toHaveLength(1);
});
