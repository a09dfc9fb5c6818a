import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { blocks, contentManager, startStack, type Stack } from './harness';
import { mediaFiles, narrationRow, signCallback, waitForStatus } from './narration-helpers';

/**
 * Issue 9: a media host that answers the narration's audio URL with an ID3 tag followed by an HTML
 * page (a CDN error page behind a stale tag, say) passed the old three-byte MP3 check and was stored
 * as the narration. The download must refuse it with a clear reason, and nothing may reach the Media
 * Library.
 */

const ARTICLE = 'api::article.article';
jest.setTimeout(180_000);

/** An ID3v2.3 tag (title frame, padding), written from the ID3 spec. */
function id3Tag(): Buffer {
  const text = Buffer.from('\u0000Narration', 'latin1');
  const frame = Buffer.concat([Buffer.from('TIT2'), Buffer.from([0, 0, 0, text.length, 0, 0]), text]);
  const body = Buffer.concat([frame, Buffer.alloc(256 - frame.length)]);
  return Buffer.concat([Buffer.from('ID3'), Buffer.from([3, 0, 0, 0, 0, 256 >> 7, 256 & 0x7f]), body]);
}

const HTML = '<!doctype html><html><body><h1>502 Bad Gateway</h1><p>The origin did not answer.</p></body></html>';
const SRT = '1\n00:00:00,000 --> 00:00:01,500\nHello there.\n';

let stack: Stack;
const hits: Record<string, number> = {};
const host = http.createServer((req, res) => {
  const key = req.url ?? '';
  hits[key] = (hits[key] ?? 0) + 1;
  if (key === '/tagged-page.mp3') res.writeHead(200, { 'content-type': 'audio/mpeg' }).end(Buffer.concat([id3Tag(), Buffer.from(HTML)]));
  else if (key === '/subtitles.srt') res.writeHead(200, { 'content-type': 'application/x-subrip' }).end(SRT);
  else res.writeHead(404).end();
});
let origin = '';

beforeAll(async () => {
  await new Promise<void>((resolve) => host.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(host.address() as AddressInfo).port}`;
  stack = await startStack({ env: (emulator) => ({ SPEECH_MEDIA_HOSTS: `${emulator.url},${origin}` }) });
});

afterAll(async () => {
  await stack?.stop();
  host.closeAllConnections();
  await new Promise((resolve) => host.close(resolve));
});

it('does not store an ID3 tag followed by an HTML page as the narration', async () => {
  // The emulator's own callback must not come first: the test sends the callback itself.
  await stack.control('PUT', '/config', { generationDelayMs: 60_000 });
  const articles = contentManager(stack, ARTICLE);
  const article = await articles.create({ title: 'Tagged error page', summary: 'Summary.', body: blocks('Body.') }, 'en');
  await articles.publish(article.documentId, 'en');
  const articleId = `${article.documentId}-en`;
  await waitForStatus(stack, ARTICLE, article.documentId, 'awaiting_callback', 'en');

  const audioFile = `${origin}/tagged-page.mp3`;
  const srtFile = `${origin}/subtitles.srt`;
  const response = await stack.request('/api/speech/callback', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ articleId, response: { audioFile, srtFile, signature: signCallback(articleId, audioFile, srtFile) } }),
  });
  expect(response.status).toBe(200);

  const row = await waitForStatus(stack, ARTICLE, article.documentId, ['failed', 'completed'], 'en');
  expect(row.status).toBe('failed');
  expect(row.lastErrorCode).toBe('BAD_CONTENT');
  expect(row.lastError).toBe(
    `The narration could not be downloaded: The file from ${origin} is not an MP3 audio file: no MPEG audio frame starts where the audio should.`
  );
  expect(row.audio).toBeFalsy();
  // Refused for good (not a passing failure): fetched once, not retried.
  expect(hits['/tagged-page.mp3']).toBe(1);
  expect(await mediaFiles(stack, articleId.replace(/[^a-zA-Z0-9_-]+/g, '-'))).toEqual([]);
  expect((await stack.request(`/api/speech/narrations/${articleId}/audio.mp3`)).status).toBe(404);
  expect((await narrationRow(stack, ARTICLE, article.documentId, 'en')).status).toBe('failed');
});
