/**
 * The `<speech-narration>` player in headless Chromium, on a plain HTML page served from another
 * origin than Strapi (a small HTTP server of this test, on its own port), against narrations the
 * playground Strapi stored from the emulator: it loads and plays, its highlighted cue follows
 * `currentTime`, a click on a cue or a chapter seeks to its start, speed 1.5 is applied, the MP3
 * downloads, the keyboard alone plays and seeks, an Arabic narration is right to left with Arabic
 * words, a narration in preparation says so (and is asked for again), and every request goes to
 * Strapi, the page's own origin serving only the page. Also the route's headers: content type,
 * content-hash ETag, 304, caching, CORS.
 *
 * Needs the plugin and its player built (no admin bundle: the page is not Strapi's):
 *   node node_modules/@strapi/sdk-plugin/bin/strapi-plugin.js build && node scripts/build-player.cjs
 *   node scripts/playground.cjs compile
 *
 * One Strapi boot for the whole file; the steps run in order. Screenshots of the English and the
 * Arabic player go to test-artifacts/e2e/player-*.png.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { PLAYER_FILE } from '../../server/src/player/asset';
import { parseVtt, type Cue } from '../../player/src/vtt';
import { contentManager, startStack, waitFor, type Stack } from '../integration/harness';
import { publicNarration, publishArticleIn, waitForNewNarration, waitForStatus } from '../integration/narration-helpers';
import { ARTIFACTS, CHROMIUM, CHROMIUM_ARGS, ROOT, expectText } from './browser';

jest.setTimeout(120_000);

const ARTICLE = 'api::article.article';
const heading = (text: string) => ({ type: 'heading', level: 2, children: [{ type: 'text', text }] });
const paragraph = (text: string) => ({ type: 'paragraph', children: [{ type: 'text', text }] });

let stack: Stack;
let site: http.Server;
let siteOrigin: string;
let browser: Browser;
let page: Page;
/** Every request the page made: URL and Chromium's resource type. */
const requests: Array<{ url: string; type: string }> = [];
/** Page errors and console errors: the player must cause none. */
const problems: string[] = [];
const english = { articleId: '', cues: [] as Cue[], chapters: [] as Cue[], audioUrl: '' };
const arabic = { articleId: '', cues: [] as Cue[] };

/** A plain article page of another site, with the player loaded from Strapi. */
function articlePage(strapi: string, articleId: string) {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>An article on another site</title>
<link rel="icon" href="data:,">
<script type="module" src="${strapi}/api/speech/player.js"></script>
<style>body { font-family: sans-serif; max-width: 46rem; margin: 1.5rem auto; padding: 0 1rem; }</style>
</head>
<body>
<h1>An article on another site</h1>
<p>The text of the article, with its narration below.</p>
<speech-narration api="${strapi}" article-id="${articleId}"></speech-narration>
<div style="height: 3000px"></div>
</body>
</html>`;
}

/** The text of a WebVTT file the narration JSON links to, through the route's redirect. */
async function cuesAt(url: string) {
  const response = await fetch(url);
  expect(response.status).toBe(200);
  return parseVtt(await response.text());
}

function publishNarrated(locale: 'en' | 'ar', title: string, body: unknown[]) {
  return publishArticleIn(stack, ARTICLE, locale, { title, body });
}

/** What the player shows and plays, read in one go inside the page. */
function playerState() {
  return page.evaluate(() => {
    const root = document.querySelector('speech-narration')!.shadowRoot!;
    const audio = root.querySelector('audio')!;
    const cues = [...root.querySelectorAll('[part~="cue"]')];
    return {
      time: audio.currentTime,
      paused: audio.paused,
      rate: audio.playbackRate,
      duration: audio.duration,
      current: cues.findIndex((cue) => cue.getAttribute('aria-current') === 'true'),
      transcriptScroll: root.querySelector('[part~="transcript"]')?.scrollTop ?? 0,
      pageScroll: window.scrollY,
    };
  });
}

/** The `part` of the element that has the keyboard focus inside the player. */
function focusedPart() {
  return page.evaluate(() => document.activeElement?.shadowRoot?.activeElement?.getAttribute('part') ?? null);
}

async function openArticle(articleId: string, cueCount: number) {
  await page.goto(`${siteOrigin}/article.html?id=${encodeURIComponent(articleId)}`);
  await waitFor(async () => (await page.locator('speech-narration [part~="cue"]').count()) === cueCount, {
    what: `${cueCount} cues in the transcript`,
  });
  await page.waitForFunction(() => (document.querySelector('speech-narration')!.shadowRoot!.querySelector('audio')!.duration || 0) > 0);
}

const part = (name: string) => page.locator(`speech-narration [part~="${name}"]`);

beforeAll(async () => {
  if (!fs.existsSync(CHROMIUM)) throw new Error(`No Chromium at ${CHROMIUM}: apt-get install -y chromium`);
  if (!fs.existsSync(path.join(ROOT, PLAYER_FILE))) throw new Error(`No player at ${PLAYER_FILE}: node scripts/build-player.cjs`);
  fs.mkdirSync(ARTIFACTS, { recursive: true });
  stack = await startStack({
    env: {
      SPEECH_LOCALE_VOICES: 'ar=ar-male-1',
      // The article type with its pages on the site: the player shares them.
      SPEECH_CONTENT_TYPES: JSON.stringify({
        [ARTICLE]: {
          titleField: 'title',
          textFields: ['summary', 'body'],
          trigger: 'publish',
          url: 'https://site.example/{locale}/news/{documentId}',
        },
      }),
    },
  });

  const englishId = await publishNarrated('en', 'Listening on another site', [
    paragraph('The first sentence is short. The second sentence follows it. A third sentence comes next.'),
    heading('Reading along'),
    paragraph('Each sentence is a cue. The transcript follows the voice. A click on a sentence jumps to it.'),
    heading('Speed and keys'),
    paragraph('Listeners may go faster. The keyboard does everything. The last sentence ends the article.'),
  ]);
  const arabicId = await publishNarrated('ar', 'الاستماع على موقع آخر', [
    paragraph('الجملة الأولى قصيرة. الجملة الثانية تتبعها. تأتي الجملة الثالثة بعدهما.'),
  ]);
  await waitForStatus(stack, ARTICLE, englishId, 'completed', 'en', 90_000);
  await waitForStatus(stack, ARTICLE, arabicId, 'completed', 'ar', 90_000);

  english.articleId = `${englishId}-en`;
  const englishJson = (await publicNarration(stack, english.articleId)).body;
  english.cues = await cuesAt(englishJson.vttUrl);
  english.chapters = await cuesAt(englishJson.chaptersUrl);
  english.audioUrl = englishJson.audioUrl;
  arabic.articleId = `${arabicId}-ar`;
  arabic.cues = await cuesAt((await publicNarration(stack, arabic.articleId)).body.vttUrl);
  expect(english.cues.length).toBeGreaterThanOrEqual(8);
  expect(english.chapters.map((chapter) => chapter.text)).toEqual(['Listening on another site', 'Reading along', 'Speed and keys']);
  expect(arabic.cues.length).toBeGreaterThanOrEqual(3);

  site = http.createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://site');
    if (url.pathname === '/embed.html') {
      const src = `${stack.url}/api/speech/embed/${encodeURIComponent(url.searchParams.get('id') ?? '')}#t=${url.searchParams.get('t') ?? ''}`;
      response
        .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
        .end(`<!doctype html><title>Embedded</title><iframe src="${src}" width="640" height="360"></iframe>`);
      return;
    }
    if (url.pathname !== '/article.html') {
      response.writeHead(404).end();
      return;
    }
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(articlePage(stack.url, url.searchParams.get('id') ?? ''));
  });
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  siteOrigin = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
  expect(siteOrigin).not.toBe(new URL(stack.url).origin);

  browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
  const context = await browser.newContext({ viewport: { width: 900, height: 900 }, locale: 'en-US' });
  page = await context.newPage();
  page.setDefaultTimeout(20_000);
  page.on('request', (request) => requests.push({ url: request.url(), type: request.resourceType() }));
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`console error: ${message.text()}`);
  });
}, 240_000);

afterAll(async () => {
  await browser?.close();
  if (site) await new Promise((resolve) => site.close(resolve));
  await stack?.stop();
});

describe('GET /api/speech/player.js', () => {
  it('serves the built module as JavaScript with a content-hash ETag, to any origin (CORS)', async () => {
    const response = await stack.request('/api/speech/player.js', { headers: { origin: 'https://news.example' } });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(response.headers.get('access-control-allow-origin')).toBe('https://news.example');
    const body = Buffer.from(await response.arrayBuffer());
    const built = fs.readFileSync(path.join(ROOT, PLAYER_FILE));
    expect(body.equals(built)).toBe(true);
    const version = response.headers.get('x-player-version');
    expect(version).toBe(createHash('sha256').update(built).digest('hex').slice(0, 16));
    expect(response.headers.get('etag')).toBe(`"${version}"`);
    // The plain URL: kept five minutes, then revalidated.
    expect(response.headers.get('cache-control')).toBe('public, max-age=300, must-revalidate');
  });

  it('answers 304 to If-None-Match; caches the hashed URL a year, immutable, and only the current hash', async () => {
    const { headers } = await stack.request('/api/speech/player.js');
    const etag = headers.get('etag')!;
    const unchanged = await stack.request('/api/speech/player.js', { headers: { 'if-none-match': etag } });
    expect(unchanged.status).toBe(304);
    expect(await unchanged.text()).toBe('');
    expect(unchanged.headers.get('etag')).toBe(etag);
    expect((await stack.request('/api/speech/player.js', { headers: { 'if-none-match': '"0123456789abcdef"' } })).status).toBe(200);

    const hashed = await stack.request(`/api/speech/player.js?v=${headers.get('x-player-version')}`);
    expect(hashed.status).toBe(200);
    expect(hashed.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    const stale = await stack.request('/api/speech/player.js?v=0123456789abcdef');
    expect(stale.headers.get('cache-control')).toBe('public, max-age=300, must-revalidate');
  });
});

describe('the player on a page of another origin', () => {
  it('loads the English narration: controls, chapters and the transcript, left to right, in English', async () => {
    await openArticle(english.articleId, english.cues.length);
    expect(await page.locator('speech-narration [part~="cue"]').allInnerTexts()).toEqual(english.cues.map((cue) => cue.text));
    expect(await part('chapter').count()).toBe(english.chapters.length);
    expect(await part('player').evaluate((element) => getComputedStyle(element).direction)).toBe('ltr');
    expect(await part('play').getAttribute('aria-label')).toBe('Play');
    expect(await part('seek').getAttribute('aria-label')).toBe('Position');
    expect(await part('status').getAttribute('role')).toBe('status');
    expect(await part('status').innerText()).toBe('');
    expect(await part('download').innerText()).toBe('Download MP3');
    // Said on screen that the voice is synthetic; the voice is named on hover or focus. Never made again: no "Updated".
    expect(await part('ai-label').evaluate((element) => element.firstChild!.textContent)).toBe('AI voice');
    const tip = page.locator('speech-narration [role="tooltip"]');
    expect(await tip.isVisible()).toBe(false);
    await part('ai-label').focus();
    expect(await tip.innerText()).toBe('Voice: en-female-1');
    await part('ai-label').blur();
    await part('ai-label').hover();
    expect(await tip.isVisible()).toBe(true);
    expect(await part('updated').count()).toBe(0);
    expect(await part('changed').count()).toBe(0);
    // Share: the article's page; without a share sheet (headless), copied, and said so.
    const [documentId] = english.articleId.split('-en');
    expect(await part('share').getAttribute('href')).toBe(`https://site.example/en/news/${documentId}`);
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: siteOrigin });
    await page.evaluate(() => Object.defineProperty(navigator, 'share', { value: undefined, configurable: true }));
    await part('share').click();
    await expectText(part('status'), 'Link copied.');
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(`https://site.example/en/news/${documentId}`);
  });

  it('plays, and its highlighted cue follows currentTime, scrolling the transcript but never the page', async () => {
    await part('play').click();
    await waitFor(async () => (await playerState()).time > 0.3, { what: 'playback to advance', timeoutMs: 15_000 });
    expect(await part('play').getAttribute('aria-label')).toBe('Pause');
    const seen: number[] = [];
    const deadline = Date.now() + 6_000;
    while (Date.now() < deadline) {
      const state = await playerState();
      if (state.current >= 0) {
        const cue = english.cues[state.current];
        // The highlight moves on `timeupdate` (every 250 ms at most): it may trail the clock a little.
        expect(cue.start).toBeLessThanOrEqual(state.time + 0.01);
        expect(cue.end).toBeGreaterThanOrEqual(state.time - 0.5);
        if (seen[seen.length - 1] !== state.current) seen.push(state.current);
      }
      await page.waitForTimeout(100);
    }
    expect(seen.length).toBeGreaterThanOrEqual(2);
    expect([...seen].sort((a, b) => a - b)).toEqual(seen);

    // Far along: the transcript box scrolls to the highlighted cue; the page stays where it was.
    const last = english.cues[english.cues.length - 1];
    await page.evaluate((start) => {
      document.querySelector('speech-narration')!.shadowRoot!.querySelector('audio')!.currentTime = start + 0.05;
    }, last.start);
    await waitFor(async () => (await playerState()).current === english.cues.length - 1, { what: 'the last cue highlighted' });
    await waitFor(async () => (await playerState()).transcriptScroll > 0, { what: 'the transcript to scroll' });
    expect((await playerState()).pageScroll).toBe(0);
  });

  it('a click on the third cue seeks to its start; a chapter jumps to its own', async () => {
    await part('play').click();
    await waitFor(async () => (await playerState()).paused, { what: 'pause' });
    await part('cue').nth(2).click();
    let state = await playerState();
    expect(state.time).toBeCloseTo(english.cues[2].start, 2);
    expect(state.current).toBe(2);
    expect(await part('cue').nth(2).getAttribute('aria-current')).toBe('true');

    await part('chapter').nth(1).click();
    state = await playerState();
    expect(state.time).toBeCloseTo(english.chapters[1].start, 2);
    expect(await part('chapter').nth(1).getAttribute('aria-current')).toBe('true');
    await part('cue').nth(2).click();
    await part('player').screenshot({ path: path.join(ARTIFACTS, 'player-en.png') });
  });

  it('applies speed 1.5 to the audio', async () => {
    await part('speed').selectOption('1.5');
    expect((await playerState()).rate).toBe(1.5);
    await part('play').click();
    const before = await playerState();
    await page.waitForTimeout(1_000);
    const after = await playerState();
    expect(after.rate).toBe(1.5);
    expect(after.time).toBeGreaterThan(before.time);
    await part('play').click();
  });

  it('offers the MP3 for download: the stored file, named after the article', async () => {
    const [download] = await Promise.all([page.waitForEvent('download'), part('download').click()]);
    expect(download.suggestedFilename()).toBe(`${english.articleId}.mp3`);
    const saved = fs.readFileSync((await download.path())!);
    const stored = Buffer.from(await (await fetch(english.audioUrl)).arrayBuffer());
    expect(saved.equals(stored)).toBe(true);
  });

  it('the keyboard alone plays, pauses, seeks, changes speed and jumps to a cue', async () => {
    await openArticle(english.articleId, english.cues.length);
    // The label first: its tooltip names the voice to keyboard users too.
    await page.keyboard.press('Tab');
    expect(await focusedPart()).toBe('ai-label');
    await page.keyboard.press('Tab');
    expect(await focusedPart()).toBe('button play');
    await page.keyboard.press('Enter');
    await waitFor(async () => !(await playerState()).paused && (await playerState()).time > 0.2, { what: 'playing', timeoutMs: 15_000 });
    await page.keyboard.press('Space');
    await waitFor(async () => (await playerState()).paused, { what: 'paused' });

    for (const expected of ['button back', 'button forward', 'seek']) {
      await page.keyboard.press('Tab');
      expect(await focusedPart()).toBe(expected);
    }
    const { duration } = await playerState();
    await page.keyboard.press('End');
    expect((await playerState()).time).toBeCloseTo(duration, 1);
    await page.keyboard.press('Home');
    expect((await playerState()).time).toBe(0);
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowLeft');
    expect((await playerState()).time).toBeCloseTo(5, 1);
    await page.keyboard.press('PageUp');
    expect((await playerState()).time).toBeCloseTo(20, 1);
    await page.keyboard.press('ArrowLeft');
    expect((await playerState()).time).toBeCloseTo(15, 1);

    await page.keyboard.press('Tab');
    expect(await focusedPart()).toBe('speed');
    await page.keyboard.press('ArrowDown');
    expect((await playerState()).rate).toBe(1.25);

    // The link, each chapter, then one tab stop for the whole transcript: the cue being read.
    for (const expected of ['download', 'share', ...english.chapters.map(() => 'chapter'), 'cue']) {
      await page.keyboard.press('Tab');
      expect(await focusedPart()).toBe(expected);
    }
    const focusedCue = () =>
      page.evaluate(() => {
        const root = document.querySelector('speech-narration')!.shadowRoot!;
        return [...root.querySelectorAll('[part~="cue"]')].indexOf(root.activeElement!);
      });
    const reading = (await playerState()).current;
    expect(await focusedCue()).toBe(reading);
    await page.keyboard.press('ArrowDown');
    expect(await focusedCue()).toBe(reading + 1);
    await page.keyboard.press('Enter');
    expect((await playerState()).time).toBeCloseTo(english.cues[reading + 1].start, 2);
    await page.keyboard.press('Home');
    expect(await focusedCue()).toBe(0);
    await page.keyboard.press('Space');
    expect((await playerState()).time).toBeCloseTo(english.cues[0].start, 2);
  });

  it('renders an Arabic narration right to left, with Arabic words', async () => {
    await openArticle(arabic.articleId, arabic.cues.length);
    expect(await part('player').evaluate((element) => getComputedStyle(element).direction)).toBe('rtl');
    expect(await part('player').getAttribute('aria-label')).toBe('استمع إلى هذه المقالة');
    expect(await part('play').getAttribute('aria-label')).toBe('تشغيل');
    expect(await part('back').getAttribute('aria-label')).toBe('رجوع 15 ثانية');
    expect(await part('seek').getAttribute('aria-label')).toBe('موضع التشغيل');
    expect(await part('speed').getAttribute('aria-label')).toBe('السرعة');
    expect(await part('download').innerText()).toBe('تنزيل MP3');
    expect(await part('ai-label').evaluate((element) => element.firstChild!.textContent)).toBe('صوت بالذكاء الاصطناعي');
    await part('ai-label').focus();
    expect(await page.locator('speech-narration [role="tooltip"]').innerText()).toBe('الصوت: ar-male-1');
    expect(await part('ai-label').evaluate((element) => getComputedStyle(element).direction)).toBe('rtl');
    expect(await part('transcript').getAttribute('lang')).toBe('ar');
    expect(
      await part('cue')
        .nth(0)
        .evaluate((element) => getComputedStyle(element).direction)
    ).toBe('rtl');
    // Laid out from the right: the transport controls first (rightmost), the speed and the link after them.
    const playBox = (await part('play').boundingBox())!;
    const speedBox = (await part('speed').boundingBox())!;
    expect(playBox.x).toBeGreaterThan(speedBox.x);
    // The cues' text starts at the right edge of the transcript.
    const cueBox = (await part('cue').nth(0).boundingBox())!;
    const textRight = await part('cue')
      .nth(0)
      .evaluate((element) => {
        const range = document.createRange();
        range.selectNodeContents(element);
        return range.getBoundingClientRect().right;
      });
    expect(cueBox.x + cueBox.width - textRight).toBeLessThan(20);
    await part('cue').nth(1).click();
    expect((await playerState()).time).toBeCloseTo(arabic.cues[1].start, 2);
    await part('player').screenshot({ path: path.join(ARTIFACTS, 'player-ar.png') });
  });

  it('plays and seeks a narration joined from parts (segmented mode), in English and in Arabic', async () => {
    const fields = { titleField: 'title', textFields: ['summary', 'body'] };
    const inParts = await stack.admin('PUT', '/speech/settings', {
      contentTypes: { [ARTICLE]: { ...fields, trigger: 'publish', narrationMode: 'segmented', segmentCharacters: 200 } },
    });
    expect(inParts.status).toBe(200);
    let joined: Array<{ articleId: string; documentId: string; locale: 'en' | 'ar' }>;
    try {
      const englishParts = Array.from({ length: 5 }, (_, i) =>
        paragraph(`Part ${i + 1} of a long read, narrated on its own. It is joined to the others into one file that plays and seeks.`)
      );
      const arabicParts = Array.from({ length: 4 }, (_, i) =>
        paragraph(`هذا هو الجزء رقم ${i + 1} من مقالة طويلة. يُقرأ وحده ثم يُضم إلى الأجزاء الأخرى في ملف واحد يُشغَّل ويُقدَّم.`)
      );
      const englishDoc = await publishNarrated('en', 'A long read in parts', englishParts);
      const arabicDoc = await publishNarrated('ar', 'مقالة طويلة على أجزاء', arabicParts);
      joined = [
        { articleId: `${englishDoc}-en`, documentId: englishDoc, locale: 'en' },
        { articleId: `${arabicDoc}-ar`, documentId: arabicDoc, locale: 'ar' },
      ];
      for (const narration of joined) await waitForStatus(stack, ARTICLE, narration.documentId, 'completed', narration.locale, 120_000);
    } finally {
      await stack.admin('PUT', '/speech/settings', { contentTypes: { [ARTICLE]: { ...fields, trigger: 'publish' } } });
    }
    for (const narration of joined) {
      const row = await waitForStatus(stack, ARTICLE, narration.documentId, 'completed', narration.locale);
      expect(row.parts.total).toBeGreaterThanOrEqual(3);
      const json = (await publicNarration(stack, narration.articleId)).body;
      const stored = Number(json.durationSeconds);
      expect(stored).toBeGreaterThan(3);
      const cues = await cuesAt(json.vttUrl);
      await openArticle(narration.articleId, cues.length);
      const state = await playerState();
      // The browser reads the duration from the joined file's Xing header: the parts' sum, as stored.
      expect(Math.abs(state.duration - stored)).toBeLessThan(0.06);
      expect(Math.abs(cues[cues.length - 1].end - state.duration)).toBeLessThanOrEqual(0.1);
      // Decoded end to end by Chromium's own decoder: no error, the same length within one frame.
      const decoded = await page.evaluate(async (url) => {
        const bytes = await (await fetch(url)).arrayBuffer();
        const audio = await new OfflineAudioContext(1, 1, 22050).decodeAudioData(bytes);
        return audio.duration;
      }, json.audioUrl);
      expect(Math.abs(decoded - stored)).toBeLessThan(0.06);
      // Seek into the last part: its last cue is highlighted; a click on a cue of a middle part seeks to its start.
      await page.evaluate(
        (start) => {
          document.querySelector('speech-narration')!.shadowRoot!.querySelector('audio')!.currentTime = start + 0.05;
        },
        cues[cues.length - 1].start
      );
      await waitFor(async () => (await playerState()).current === cues.length - 1, { what: 'the last cue highlighted' });
      const middle = Math.floor(cues.length / 2);
      await part('cue').nth(middle).click();
      expect((await playerState()).time).toBeCloseTo(cues[middle].start, 2);
      await part('play').click();
      await waitFor(async () => (await playerState()).time > cues[middle].start + 0.3, {
        what: 'playback from the middle part',
        timeoutMs: 15_000,
      });
      await part('play').click();
      if (narration.locale === 'ar') {
        expect(await part('player').evaluate((element) => getComputedStyle(element).direction)).toBe('rtl');
        await part('player').screenshot({ path: path.join(ARTIFACTS, 'player-ar-parts.png') });
      }
    }
  });

  it('after an edit of one part, says when it was updated and marks the passage read anew on the seek bar', async () => {
    const fields = { titleField: 'title', textFields: ['summary', 'body'] };
    const inParts = await stack.admin('PUT', '/speech/settings', {
      contentTypes: { [ARTICLE]: { ...fields, trigger: 'publish', narrationMode: 'segmented', segmentCharacters: 200 } },
    });
    expect(inParts.status).toBe(200);
    let articleId: string;
    try {
      const text = (i: number, edited = false) =>
        `Paragraph ${i + 1} is read on its own${edited ? ', and was corrected after publication' : ''}. It is long enough to be one part of this article.`;
      const documentId = await publishNarrated(
        'en',
        'An article corrected later',
        [0, 1, 2, 3].map((i) => paragraph(text(i)))
      );
      const first = await waitForStatus(stack, ARTICLE, documentId, 'completed', 'en', 120_000);
      const articles = contentManager(stack, ARTICLE);
      await articles.update(
        documentId,
        { title: 'An article corrected later', body: [0, 1, 2, 3].map((i) => paragraph(text(i, i === 2))) },
        'en'
      );
      await articles.publish(documentId, 'en');
      await waitForNewNarration(stack, ARTICLE, documentId, 'en', first.completedAt, 120_000);
      articleId = `${documentId}-en`;
    } finally {
      await stack.admin('PUT', '/speech/settings', { contentTypes: { [ARTICLE]: { ...fields, trigger: 'publish' } } });
    }
    const json = (await publicNarration(stack, articleId)).body;
    const [latest] = json.revisions;
    expect(latest.cause).toBe('edit');
    expect(latest.changed).toHaveLength(1);
    await openArticle(articleId, (await cuesAt(json.vttUrl)).length);
    const day = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' }).format(
      new Date(latest.at)
    );
    expect(await part('updated').innerText()).toBe(`Updated ${day}`);
    // One mark, where the corrected passage is in the new audio, along the seek bar's track.
    expect(await part('changed').count()).toBe(1);
    const seekBox = (await part('seek').boundingBox())!;
    const markBox = (await part('changed').boundingBox())!;
    const duration = Number(json.durationSeconds);
    expect(markBox.x).toBeGreaterThan(seekBox.x);
    expect(markBox.x + markBox.width).toBeLessThan(seekBox.x + seekBox.width);
    expect(Math.abs(markBox.x - seekBox.x - (seekBox.width * latest.changed[0].start) / duration)).toBeLessThan(12);
    await part('player').screenshot({ path: path.join(ARTIFACTS, 'player-updated.png') });
  });

  it("plays in another site's iframe from the embed page, starting where its #t= says", async () => {
    await page.goto(`${siteOrigin}/embed.html?id=${encodeURIComponent(english.articleId)}&t=0:02.5`);
    const frame = page.frameLocator('iframe');
    await waitFor(async () => (await frame.locator('speech-narration [part~="cue"]').count()) === english.cues.length, {
      what: 'the transcript in the frame',
    });
    const time = () => frame.locator('speech-narration').evaluate((element) => element.shadowRoot!.querySelector('audio')!.currentTime);
    await waitFor(async () => Math.abs((await time()) - 2.5) < 0.05, { what: 'the audio at 2.5 s' });
    expect(await frame.locator('speech-narration [part~="ai-label"]').evaluate((element) => element.firstChild!.textContent)).toBe(
      'AI voice'
    );
    await frame.locator('speech-narration [part~="play"]').click();
    await waitFor(async () => (await time()) > 2.8, { what: 'playback in the frame', timeoutMs: 15_000 });
    await frame.locator('speech-narration [part~="play"]').click();
  });

  it('says "narration in preparation" while the narration is processing, and asks again', async () => {
    // The emulator holds the generation: the narration stays in preparation.
    await stack.control('PUT', '/config', { generationDelayMs: 600_000 });
    const documentId = await publishNarrated('en', 'Still being narrated', [paragraph('Not ready yet.')]);
    const articleId = `${documentId}-en`;
    await waitFor(async () => (await publicNarration(stack, articleId)).body?.status === 'processing', { what: 'a processing narration' });
    const asked = () => requests.filter((request) => request.url === `${stack.url}/api/speech/narrations/${articleId}`).length;

    await page.goto(`${siteOrigin}/article.html?id=${articleId}`);
    await expectText(part('status'), 'Narration in preparation. It will play here as soon as it is ready.');
    expect(await part('play').count()).toBe(0);
    await part('player').screenshot({ path: path.join(ARTIFACTS, 'player-preparing.png') });
    const first = asked();
    expect(first).toBe(1);
    await waitFor(async () => asked() > first, { what: 'the narration asked for again', timeoutMs: 13_000, intervalMs: 250 });
  });

  it('says so, plainly, for an article without a narration', async () => {
    await page.goto(`${siteOrigin}/article.html?id=no-such-article-en`);
    await expectText(part('status'), 'This article has no narration.');
    expect(await part('play').count()).toBe(0);
  });

  it('requested nothing but Strapi, the page itself aside, and raised no error', async () => {
    const strapiOrigin = new URL(stack.url).origin;
    // data: (the page's empty icon) and blob: (the saved MP3) are not requests to any host.
    const network = requests.filter((request) => !/^(data|blob):/.test(request.url));
    const elsewhere = network.filter(
      (request) =>
        new URL(request.url).origin !== strapiOrigin && !(new URL(request.url).origin === siteOrigin && request.type === 'document')
    );
    expect(elsewhere).toEqual([]);
    const paths = network.filter((request) => request.url.startsWith(strapiOrigin)).map((request) => new URL(request.url).pathname);
    expect(paths).toEqual(
      expect.arrayContaining([
        '/api/speech/player.js',
        `/api/speech/narrations/${english.articleId}`,
        `/api/speech/narrations/${english.articleId}/subtitles.vtt`,
        `/api/speech/narrations/${english.articleId}/chapters.vtt`,
        `/api/speech/narrations/${english.articleId}/audio.mp3`,
      ])
    );
    // The page's own origin served the article pages and the page framing the embed only.
    expect(
      new Set(network.filter((request) => request.url.startsWith(siteOrigin)).map((request) => new URL(request.url).pathname))
    ).toEqual(new Set(['/article.html', '/embed.html']));
    expect(problems.filter((problem) => !problem.includes('404'))).toEqual([]);
  });
});
