/**
 * What the segmented bench's steps share: the articles (the segmenting tests' own generator,
 * tests/unit/narration/segment-fixtures.ts, bundled by esbuild), the article type's mode in the plugin's
 * settings, a document's narration as the admin reads it, and the emulator's control API.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { json, onCleanup, root, sleep } from '../../bench-support.mjs';
import { ARTICLE_FIELDS, UID } from './settings.mjs';

/**
 * seededRandom, paragraph (200 to 900 characters), article (paragraphs up to a size) and
 * editOneParagraph (one word changed or one sentence added), as the unit tests' estimate used them.
 */
export async function loadFixtures() {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'speech-bench-segmented-'));
  onCleanup('fixtures bundle', () => rmSync(dir, { recursive: true, force: true }));
  const outfile = path.join(dir, 'segment-fixtures.mjs');
  await build({
    entryPoints: [path.join(root, 'tests/unit/narration/segment-fixtures.ts')],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    logLevel: 'error',
  });
  return import(pathToFileURL(outfile).href);
}

/** Paragraphs as the article's blocks field. */
export const blocks = (paragraphs) => paragraphs.map((text) => ({ type: 'paragraph', children: [{ type: 'text', text }] }));

/** The article type narrated on publish in this mode (PUT /speech/settings), then read back as the plugin sees it. */
export async function narrateArticlesIn({ url, token }, narrationMode, segmentCharacters) {
  const body = { contentTypes: { [UID]: { ...ARTICLE_FIELDS, trigger: 'publish', narrationMode, segmentCharacters } } };
  const put = await json(`${url}/speech/settings`, 'PUT', body, token);
  if (put.status !== 200) throw new Error(`settings update failed: ${put.status} ${JSON.stringify(put.body)}`);
  // Also refills the plugin's 5 s settings cache.
  const types = await json(`${url}/speech/narrated-types`, 'GET', undefined, token);
  const type = types.body?.contentTypes?.[UID];
  if (type?.narrationMode !== undefined && type.narrationMode !== narrationMode)
    throw new Error(`the plugin narrates ${UID} in ${type.narrationMode} mode, expected ${narrationMode}`);
}

/** The document's English narration, as the admin's panel reads it (GET /speech/narrations/document/:documentId). */
export async function narrationOf({ url, token }, documentId) {
  const res = await json(
    `${url}/speech/narrations/document/${documentId}?contentType=${encodeURIComponent(UID)}&locale=en`,
    'GET',
    undefined,
    token
  );
  if (res.status !== 200) throw new Error(`narration of ${documentId}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.data.find((row) => row.locale === 'en') ?? null;
}

/** Waits for the document's narration to be completed with another completedAt than `previous`; throws on a failure. */
export async function waitForNewNarration(server, documentId, previous, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  let row = null;
  while (Date.now() < deadline) {
    row = await narrationOf(server, documentId);
    if (row?.status === 'failed' || row?.status === 'cancelled')
      throw new Error(`narration of ${documentId} ${row.status}: ${row.lastError}`);
    if (row?.status === 'completed' && row.completedAt !== previous) return row;
    await sleep(100);
  }
  throw new Error(`narration of ${documentId} not completed after ${timeoutMs} ms: ${JSON.stringify(row)}`);
}

/** The emulator's control API at `base`. */
export function emulatorControl(base) {
  const call = async (method, address, body) => {
    const res = await json(`${base}/__control${address}`, method, body);
    if (res.status !== 200) throw new Error(`emulator ${method} ${address}: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body;
  };
  return {
    configure: (knobs) => call('PUT', '/config', knobs),
    credits: async () => (await call('GET', '/credits')).credits,
    /** Accepted and refused POST /process-text after request `afterId`. */
    submissions: async (afterId = 0) =>
      (await call('GET', '/requests?path=/process-text&method=POST')).requests.filter((request) => request.id > afterId),
    lastRequestId: async () => (await call('GET', '/requests')).requests.at(-1)?.id ?? 0,
    events: async (type) => (await call('GET', `/events${type ? `?type=${type}` : ''}`)).events,
    callbacks: async () => (await call('GET', '/callbacks')).callbacks,
    articles: async () => (await call('GET', '/articles')).articles,
  };
}

/** An article's own key and its parts' keys (`<articleId>~p<hash>`). */
export const ofArticle = (articleId) => (key) => key === articleId || key?.startsWith(`${articleId}~p`);
