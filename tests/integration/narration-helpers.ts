import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { id3v2TagLength } from '../../server/src/audio/mp3-sniff';
import { pathToFileURL } from 'node:url';
import { createHash, createHmac } from 'node:crypto';
import { EMULATOR_API_KEY, blocks, contentManager, waitFor, type Stack } from './harness';

/** Test-side helpers for narration scenarios. Signatures are computed here from the spec's recipe. */

export function signCallback(articleId: string, audioFile: string | null, srtFile: string | null, apiKey = EMULATOR_API_KEY): string {
  const key = createHash('sha256').update(apiKey).digest('hex');
  return createHmac('sha256', key)
    .update(`${articleId}|${audioFile ?? 'null'}|${srtFile ?? 'null'}`)
    .digest('hex');
}

export interface LoggedRequest {
  method: string;
  path: string;
  status?: number;
  body?: any;
  at?: string;
  receivedAt?: string;
  timestamp?: string;
}

export async function emulatorRequests(stack: Stack, path = '/process-text'): Promise<LoggedRequest[]> {
  const log = await stack.control<any>('GET', '/requests');
  const list: LoggedRequest[] = Array.isArray(log) ? log : (log.requests ?? []);
  return list.filter((entry) => entry.path === path && entry.method === 'POST');
}

/** The service's files fetched from the emulator (GET /media/...), the plugin's downloads and any test's own. */
export async function mediaRequests(stack: Stack): Promise<LoggedRequest[]> {
  const log = await stack.control<any>('GET', '/requests');
  const list: LoggedRequest[] = Array.isArray(log) ? log : (log.requests ?? []);
  return list.filter((entry) => entry.method === 'GET' && entry.path.startsWith('/media/'));
}

export async function submissionsFor(stack: Stack, articleId: string): Promise<LoggedRequest[]> {
  return (await emulatorRequests(stack)).filter((entry) => entry.body?.postData?.articleId === articleId);
}

export async function publicNarration(stack: Stack, articleId: string) {
  const response = await stack.request(`/api/speech/narrations/${encodeURIComponent(articleId)}`);
  return { status: response.status, body: (await response.json()) as any };
}

/**
 * Creates an article's `locale` and publishes that locale alone, returning its documentId. Another
 * locale than English is created beside an English draft, as the Content Manager does it.
 */
export async function publishArticleIn(stack: Stack, uid: string, locale: string, data: { title: string; body: unknown[] }) {
  const articles = contentManager(stack, uid);
  const placeholder = { title: 'placeholder', body: [{ type: 'paragraph', children: [{ type: 'text', text: 'Placeholder.' }] }] };
  const { documentId } = await articles.create(locale === 'en' ? data : placeholder, 'en');
  if (locale !== 'en') await articles.update(documentId, data, locale);
  await articles.publish(documentId, locale);
  return documentId;
}

export async function adminNarration(stack: Stack, contentType: string, documentId: string, locale?: string) {
  const query = `contentType=${encodeURIComponent(contentType)}${locale ? `&locale=${locale}` : ''}`;
  const response = await stack.admin('GET', `/speech/narrations/document/${documentId}?${query}`);
  return response.body as { data: any[]; queue: any };
}

export async function narrationRow(stack: Stack, contentType: string, documentId: string, locale?: string) {
  const { data } = await adminNarration(stack, contentType, documentId, locale);
  return data.find((row) => (locale ? row.locale === locale : true)) ?? null;
}

export async function waitForStatus(
  stack: Stack,
  contentType: string,
  documentId: string,
  status: string | string[],
  locale?: string,
  timeoutMs = 45_000
) {
  const wanted = Array.isArray(status) ? status : [status];
  return waitFor(
    async () => {
      const row = await narrationRow(stack, contentType, documentId, locale);
      return row && wanted.includes(row.status) ? row : null;
    },
    { timeoutMs, what: `narration of ${documentId}${locale ? `-${locale}` : ''} to be ${wanted.join('|')}${''}` }
  ).catch(async (error) => {
    const row = await narrationRow(stack, contentType, documentId, locale).catch(() => null);
    // The plugin's own lines, not the test's polling of the admin routes.
    const logs = stack
      .logs()
      .split('\n')
      .filter((line) => !/\bhttp\b.*GET \/speech\//.test(line))
      .join('\n');
    const articleId = `${documentId}${locale ? `-${locale}` : ''}`;
    const callbacks = await stack.control<any>('GET', `/callbacks?articleId=${encodeURIComponent(articleId)}`).catch(() => null);
    const delivered = (callbacks?.callbacks ?? []).map((c: any) => [
      c.reason,
      c.outcome,
      c.attempts?.map((a: any) => a.statusCode ?? a.error),
    ]);
    throw new Error(
      `${error.message}; last row: ${JSON.stringify(row)}\n--- callbacks: ${JSON.stringify(delivered)}\n--- strapi log tail ---\n${logs.slice(-4000)}`
    );
  });
}

export async function mediaFiles(stack: Stack, nameContains: string) {
  const response = await stack.admin('GET', `/upload/files?pageSize=100&filters[name][$contains]=${encodeURIComponent(nameContains)}`);
  const body = response.body as any;
  return (body.results ?? body) as Array<{ id: number; name: string; url: string; mime: string }>;
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** When the emulator received a logged request, in ms since the epoch. */
export function requestTime(entry: LoggedRequest & Record<string, any>): number {
  const value = entry.at ?? entry.receivedAt ?? entry.timestamp ?? entry.time;
  const ms = typeof value === 'number' ? value : Date.parse(value);
  if (!Number.isFinite(ms)) throw new Error(`request log entry has no time: ${JSON.stringify(entry).slice(0, 200)}`);
  return ms;
}

/** Id of the newest request the emulator logged, to look only at what comes after it. */
export async function lastRequestId(stack: Stack): Promise<number> {
  const { requests } = await stack.control<{ requests: Array<{ id: number }> }>('GET', '/requests');
  return requests.length ? requests[requests.length - 1].id : 0;
}

/**
 * Every POST /process-text after a given request id. Requests the emulator refuses before reading
 * the body (an injected 5xx or 429) carry no articleId, so they are matched by time, not by body.
 */
export async function processTextSince(stack: Stack, afterId: number): Promise<Array<LoggedRequest & { id: number }>> {
  return (await emulatorRequests(stack)).filter((entry: any) => entry.id > afterId) as any;
}

/** Waits for a narration completed after `previousCompletedAt` (a new version stored). */
export async function waitForNewNarration(
  stack: Stack,
  contentType: string,
  documentId: string,
  locale: string,
  previousCompletedAt: string,
  timeoutMs = 45_000
) {
  return waitFor(
    async () => {
      const current = await narrationRow(stack, contentType, documentId, locale);
      return current?.status === 'completed' && current.completedAt !== previousCompletedAt ? current : null;
    },
    { timeoutMs, what: `a new narration of ${documentId}-${locale}` }
  );
}

/**
 * The service generated the article exactly `generations` times, the account paid exactly
 * `characters` credits since `creditsBefore`, and the stored subtitles say `spoken`.
 */
export async function expectPaidOnce(
  stack: Stack,
  articleId: string,
  expected: { generations: number; creditsBefore: number; characters: number; spoken: string }
) {
  const { articles: records } = await stack.control<any>('GET', `/articles?articleId=${encodeURIComponent(articleId)}`);
  expect(records[0].generation).toBe(expected.generations);
  const spent = expected.creditsBefore - (await stack.control<any>('GET', '/credits')).credits;
  // Paid once, or not at all: when the service could not deliver the fresh result (Strapi was down
  // at that moment) it refunds it and re-delivers the stored result for free (spec 3.1, "delivery fails").
  const { events } = await stack.control<any>('GET', `/events?articleId=${encodeURIComponent(articleId)}`);
  const deliveryRefunded = (events as Array<{ type: string }>).some((event) => event.type === 'DELIVERY_FAILED');
  expect({ spent, deliveryRefunded }).toEqual(
    deliveryRefunded ? { spent: 0, deliveryRefunded } : { spent: expected.characters, deliveryRefunded }
  );
  const subtitles = await stack.request(`/api/speech/narrations/${encodeURIComponent(articleId)}/subtitles.srt`);
  expect(await subtitles.text()).toContain(expected.spoken);
}

/** The emulator's own frame walker (emulator/src/speech/mp3.mjs), an implementation independent of the plugin's. */
export function emulatorDuration(mp3: Buffer): number {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'speech-mp3-'));
  try {
    const file = path.join(dir, 'a.mp3');
    writeFileSync(file, mp3);
    const module = pathToFileURL(path.resolve(__dirname, '../../emulator/src/speech/mp3.mjs')).href;
    const script = `import { mp3FileDurationSec } from ${JSON.stringify(module)}; process.stdout.write(String(await mp3FileDurationSec(${JSON.stringify(file)})));`;
    return Number(execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' }));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Switches a type's narration mode at run time, as Settings -> Speech saves it, keeping the rest of
 * its settings; `segmentCharacters` is its longest part (the global one when left out).
 */
export async function setNarrationMode(
  stack: Stack,
  contentType: string,
  narrationMode: 'whole' | 'segmented',
  segmentCharacters?: number
) {
  const current = (await stack.admin('GET', '/speech/settings')).body.settings.contentTypes[contentType];
  const response = await stack.admin('PUT', '/speech/settings', {
    contentTypes: { [contentType]: { ...current, narrationMode, ...(segmentCharacters ? { segmentCharacters } : {}) } },
  });
  if (response.status !== 200) throw new Error(`settings: ${response.status} ${JSON.stringify(response.body)}`);
  return response.body.settings;
}

/** Paragraphs of about 122 characters each, `count` of them (ten are three times a limit of 400): the segmenting tests' long article. */
export function longBody(count: number, word = 'paragraph') {
  return Array.from(
    { length: count },
    (_, i) =>
      `This is ${word} ${i + 1} of a long read. It goes on for a while, so that the whole article is well over what the service takes.`
  );
}

/** The code points of a text, as the service counts and charges them. */
export const codePoints = (text: string) => [...text].length;

/** The requests the emulator answered for a segmented article's parts (their articleIds start with the article's). */
export async function partRequests(stack: Stack, articleId: string) {
  return (await emulatorRequests(stack)).filter(
    (r) =>
      typeof r.body?.postData?.articleId === 'string' &&
      r.body.postData.articleId.startsWith(articleId) &&
      r.body.postData.articleId !== articleId
  );
}

/** The seconds of audio the service delivered for these part requests (each part's first callback with audio), summed. */
export async function partsSeconds(stack: Stack, requests: LoggedRequest[]) {
  const { callbacks } = await stack.control<any>('GET', '/callbacks');
  const seconds = await Promise.all(
    requests.map(async (request) => {
      const callback = callbacks.find((c: any) => c.articleId === request.body.postData.articleId && c.payload?.response?.audioFile);
      return emulatorDuration(Buffer.from(await (await fetch(callback.payload.response.audioFile)).arrayBuffer()));
    })
  );
  return seconds.reduce((sum, part) => sum + part, 0);
}

/** A narration's MP3 as listeners get it (its public route, the redirect followed), with the exact duration a player plays. */
export async function narrationAudio(stack: Stack, articleId: string) {
  const response = await stack.request(`/api/speech/narrations/${encodeURIComponent(articleId)}/audio.mp3`);
  if (response.status !== 200) throw new Error(`audio.mp3 of ${articleId}: ${response.status}`);
  const mp3 = Buffer.from(await response.arrayBuffer());
  return { mp3, seconds: decodeWithFfmpeg(mp3).seconds };
}

/**
 * An MP3 decoded by ffmpeg and counted by ffprobe (Debian's, independent of the plugin and the
 * emulator): ffmpeg's decoding errors, the frames a player plays (a Xing/Info header's frame is not
 * one, as decoders skip it), the seconds they last, and the duration ffprobe reports.
 */
export function decodeWithFfmpeg(mp3: Buffer) {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'speech-decoded-'));
  try {
    const file = path.join(dir, 'audio.mp3');
    writeFileSync(file, mp3);
    const errors = execFileSync('ffmpeg', ['-v', 'error', '-i', file, '-f', 'null', '-'], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const entries = 'stream=nb_read_frames,duration,sample_rate';
    const probe = JSON.parse(
      execFileSync('ffprobe', ['-v', 'error', '-count_frames', '-select_streams', 'a:0', '-show_entries', entries, '-of', 'json', file], {
        encoding: 'utf8',
      })
    );
    const [stream] = probe.streams;
    const frames = Number(stream.nb_read_frames);
    const rate = Number(stream.sample_rate);
    // Layer III: 1152 samples a frame in MPEG 1 (32 kHz and up), 576 in MPEG 2 and 2.5.
    const seconds = (frames * (rate >= 32_000 ? 1152 : 576)) / rate;
    return { errors, frames, seconds, duration: Number(stream.duration) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** An MP3 without the ID3v2 tag in front (the plugin's own reading of its size): the audio as the service made it. */
export function withoutId3v2(mp3: Buffer): Buffer {
  const tag = id3v2TagLength(mp3);
  return typeof tag === 'number' ? mp3.subarray(tag) : mp3;
}

/** The tags ffprobe reads from an MP3's ID3v2 tag (a TXXX frame under its description). */
export function mp3TagsWithFfprobe(mp3: Buffer): Record<string, string> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'speech-tags-'));
  try {
    const file = path.join(dir, 'audio.mp3');
    writeFileSync(file, mp3);
    const probe = JSON.parse(
      execFileSync('ffprobe', ['-v', 'error', '-show_entries', 'format_tags', '-of', 'json', file], { encoding: 'utf8' })
    );
    return probe.format?.tags ?? {};
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Edits paragraph `index` of an article of `longBody` paragraphs ("long read" becomes "longer
 * read"), publishes it and waits for the narration stored for the edit; returns it and the new body.
 */
export async function publishOneParagraphEdited(
  stack: Stack,
  contentType: string,
  documentId: string,
  locale: string,
  body: string[],
  index: number
) {
  const before = await narrationRow(stack, contentType, documentId, locale);
  const edited = body.map((text, i) => (i === index ? text.replace('long read', 'longer read') : text));
  const entries = contentManager(stack, contentType);
  await entries.update(documentId, { body: blocks(...edited) }, locale);
  await entries.publish(documentId, locale);
  const row = await waitForNewNarration(stack, contentType, documentId, locale, before.completedAt, 90_000);
  return { row, body: edited };
}

/** The words of an SRT or WebVTT file, its cues' text joined by spaces (no header, numbers or times). */
export function spokenText(subtitles: string) {
  return subtitles
    .split(/\r?\n/)
    .filter((line) => line.trim() && line !== 'WEBVTT' && !/^\d+$/.test(line.trim()) && !line.includes('-->'))
    .join(' ')
    .replace(/\s+/g, ' ');
}

/** The credits ledger's CSV (GET /speech/usage/ledger.csv) as rows of cells by column, read with `token` (the first admin's by default). */
export async function ledgerEntries(stack: Stack, token = stack.adminToken): Promise<Array<Record<string, string>>> {
  const response = await stack.request('/speech/usage/ledger.csv', { headers: { authorization: `Bearer ${token}` } });
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toMatch(/^text\/csv/);
  const [columns, ...rows] = parseCsv(await response.text());
  return rows.map((cells) => Object.fromEntries(cells.map((cell, index) => [columns[index], cell])));
}

/** RFC 4180, as the ledger writes it: quoted cells may hold commas, quotes (doubled) and line breaks. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i += 1) {
    const char = text[i];
    if (quoted && char === '"' && text[i + 1] === '"') {
      cell += '"';
      i += 1;
    } else if (char === '"') {
      quoted = !quoted;
    } else if (!quoted && char === ',') {
      row.push(cell);
      cell = '';
    } else if (!quoted && char === '\r' && text[i + 1] === '\n') {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
      i += 1;
    } else {
      cell += char;
    }
  }
  return rows;
}
