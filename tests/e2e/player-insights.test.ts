/**
 * The `<speech-narration>` player's listening insights (issue 25) and its accessibility, in
 * headless Chromium, on a page of another site than Strapi (`localhost`, a small HTTP server of
 * this test; Strapi is on `127.0.0.1`), against narrations the playground Strapi stored from the
 * emulator. Booted as tests/e2e/player.test.ts is.
 *
 * Insights: what the player SENT, read from Chromium's network log, and what the server counted
 * of it (the route's own rules are tested in tests/integration/insights.test.ts). Played to the end in English and in Arabic: one `play`,
 * `progress` 10 to 90 once each, one `end`, the seconds heard summing to the duration; a pause and
 * a resume is not a second play, playing after the end is; sendBeacon missing falls back to fetch;
 * Global Privacy Control and `no-insights` send nothing at all.
 * Accessibility: axe-core's WCAG 2.2 A and AA rules find nothing in English and Arabic, light and
 * dark; the keyboard alone reaches and operates every control, with a visible focus; with reduced
 * motion the transcript scrolls instantly and nothing is animated.
 *
 * Needs the plugin and its player built: npm run build && node scripts/playground.cjs compile.
 * Screenshots (to look at) go to $TMPDIR/speech-player-insights/.
 */
import fs from 'node:fs';
import os from 'node:os';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { PLAYER_FILE } from '../../server/src/player/asset';
import { EVENTS_PATH, PROGRESS } from '../../player/src/insights';
import { startStack, waitFor, type Stack } from '../integration/harness';
import { publicNarration, publishArticleIn, waitForStatus } from '../integration/narration-helpers';
import { CHROMIUM, CHROMIUM_ARGS, ROOT } from './browser';

jest.setTimeout(120_000);

const LISTENER_AGENT = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';

/** Screenshots, to look at; outside the repository. */
const SHOTS = path.join(os.tmpdir(), 'speech-player-insights');

const ARTICLE = 'api::article.article';
/** Playback speed while playing to the end: a listening of 20 s takes 5. */
const FAST = 4;
const heading = (text: string) => ({ type: 'heading', level: 2, children: [{ type: 'text', text }] });
const paragraph = (text: string) => ({ type: 'paragraph', children: [{ type: 'text', text }] });

interface SentEvent {
  method: string;
  /** Chromium's resource type: `ping` for sendBeacon, `fetch` for the fallback. */
  type: string;
  cookie: string | undefined;
  contentType: string | undefined;
  body: { articleId: string; event: string; percent?: number; heard: number };
}

let stack: Stack;
let site: http.Server;
let siteOrigin: string;
let browser: Browser;
const narrations = {
  en: { articleId: '', cues: 0, chapters: 0 },
  ar: { articleId: '', cues: 0, chapters: 0 },
};
/** Page errors and console errors (a failed load included: the events route answers every event). */
const problems: string[] = [];

function articlePage(strapi: string, articleId: string, noInsights: boolean) {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>An article on another site</title>
<link rel="icon" href="data:,">
<script type="module" src="${strapi}/api/speech/player.js"></script>
<style>:root { color-scheme: light dark; } body { font-family: sans-serif; max-width: 46rem; margin: 1.5rem auto; padding: 0 1rem; }</style>
</head>
<body>
<h1>An article on another site</h1>
<speech-narration api="${strapi}" article-id="${articleId}"${noInsights ? ' no-insights' : ''}></speech-narration>
<div style="height: 3000px"></div>
</body>
</html>`;
}

/** What the server counted for a narration (the admin's document route, as the edit view's panel reads it). */
async function counted(locale: 'en' | 'ar') {
  const { articleId } = narrations[locale];
  const documentId = articleId.slice(0, -`-${locale}`.length);
  const response = await stack.admin(
    'GET',
    `/speech/insights/document/${documentId}?contentType=${encodeURIComponent(ARTICLE)}&locale=${locale}&days=7`
  );
  expect(response.status).toBe(200);
  return response.body.totals as { plays: number; listeners: number; reached: number[]; secondsHeard: number };
}

/** Waits for the server's flushes to show `plays` plays of a narration, and `ends` of them to the end. */
async function countedWhen(locale: 'en' | 'ar', plays: number, ends = 0) {
  let last: unknown;
  await waitFor(
    async () => {
      const totals = await counted(locale);
      last = totals;
      return totals.plays >= plays && totals.reached[9] >= ends;
    },
    { what: `${plays} plays and ${ends} ends counted (${locale})`, timeoutMs: 15_000 }
  ).catch((error) => {
    throw new Error(`${(error as Error).message}; last: ${JSON.stringify(last)}\n${stack.logs().slice(-3000)}`);
  });
  // A second look after another flush: nothing more arrives.
  await new Promise((resolve) => setTimeout(resolve, 1_500));
  return counted(locale);
}

/** A page in a context of its own (`init` runs before the page's scripts), and the events it sends. */
async function openPage(options: { init?: string; colorScheme?: 'light' | 'dark'; reducedMotion?: 'reduce' | 'no-preference' } = {}) {
  const context: BrowserContext = await browser.newContext({
    // A listener's browser: headless Chromium's own agent names itself, and the server counts no bot.
    userAgent: LISTENER_AGENT,
    viewport: { width: 900, height: 900 },
    locale: 'en-US',
    colorScheme: options.colorScheme ?? 'light',
    reducedMotion: options.reducedMotion ?? 'no-preference',
  });
  if (options.init) await context.addInitScript(options.init);
  const page = await context.newPage();
  page.setDefaultTimeout(20_000);
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`console error: ${message.text()}`);
  });
  const pending: Array<Promise<SentEvent>> = [];
  /** Every request to the events path, whatever its method (the network log, not the server's). */
  const toEvents: string[] = [];
  context.on('request', (request) => {
    const url = new URL(request.url());
    if (url.pathname !== EVENTS_PATH) return;
    toEvents.push(request.url());
    pending.push(
      request.allHeaders().then((headers) => ({
        method: request.method(),
        type: request.resourceType(),
        cookie: headers.cookie,
        contentType: headers['content-type'],
        body: JSON.parse(request.postData() ?? 'null'),
      }))
    );
  });
  return { context, page, sent: () => Promise.all(pending), toEvents };
}

async function openArticle(page: Page, locale: 'en' | 'ar', noInsights = false) {
  const { articleId, cues } = narrations[locale];
  await page.goto(`${siteOrigin}/article.html?id=${encodeURIComponent(articleId)}${noInsights ? '&no-insights' : ''}`);
  await waitFor(async () => (await page.locator('speech-narration [part~="cue"]').count()) === cues, { what: `${cues} cues` });
  await page.waitForFunction(() => (document.querySelector('speech-narration')!.shadowRoot!.querySelector('audio')!.duration || 0) > 0);
}

function audioState(page: Page) {
  return page.evaluate(() => {
    const audio = document.querySelector('speech-narration')!.shadowRoot!.querySelector('audio')!;
    return { time: audio.currentTime, paused: audio.paused, ended: audio.ended, duration: audio.duration, rate: audio.playbackRate };
  });
}

/** The speed no listener can pick (the select stops at 2x), so that a listening takes seconds. */
function speedUp(page: Page) {
  return page.evaluate((rate) => {
    const audio = document.querySelector('speech-narration')!.shadowRoot!.querySelector('audio')!;
    audio.defaultPlaybackRate = audio.playbackRate = rate;
  }, FAST);
}

/**
 * In the page, at the first `timeupdate` past `share` of the duration: pauses, or seeks to
 * `seekTo` (a share). Armed before the click that plays, so that no position is missed; `reached`
 * resolves to the position it happened at.
 */
async function atShare(page: Page, share: number, action: { seekTo?: number } = {}) {
  await page.evaluate(
    ([share, seekTo]) => {
      const audio = document.querySelector('speech-narration')!.shadowRoot!.querySelector('audio')!;
      (window as unknown as { __at: Promise<number> }).__at = new Promise<number>((resolve) => {
        const check = () => {
          if (audio.currentTime <= audio.duration * share) return;
          audio.removeEventListener('timeupdate', check);
          const at = audio.currentTime;
          if (seekTo === null) audio.pause();
          else audio.currentTime = audio.duration * seekTo;
          resolve(at);
        };
        audio.addEventListener('timeupdate', check);
      });
    },
    [share, action.seekTo ?? null] as const
  );
  return { reached: () => page.evaluate(() => (window as unknown as { __at: Promise<number> }).__at) };
}

const part = (page: Page, name: string) => page.locator(`speech-narration [part~="${name}"]`);

async function playToEnd(page: Page) {
  await part(page, 'play').click();
  await waitFor(async () => (await audioState(page)).ended, { what: 'the end of the audio', timeoutMs: 60_000, intervalMs: 250 });
}

/** Waits until `count` events were sent, then a little more for any that should not come. */
async function settle(sent: () => Promise<SentEvent[]>, count: number) {
  await waitFor(async () => (await sent()).length >= count, { what: `${count} events sent`, timeoutMs: 10_000 }).catch(async (error) => {
    throw new Error(`${(error as Error).message}; sent: ${JSON.stringify((await sent()).map(({ body }) => body))}`);
  });
  await new Promise((resolve) => setTimeout(resolve, 500));
  return sent();
}

const kinds = (events: SentEvent[]) => events.map(({ body }) => (body.event === 'progress' ? `progress ${body.percent}` : body.event));
const heardOf = (events: SentEvent[]) => events.reduce((sum, { body }) => sum + body.heard, 0);
const FULL_LISTENING = ['play', ...PROGRESS.map((percent) => `progress ${percent}`), 'end'];

beforeAll(async () => {
  if (!fs.existsSync(CHROMIUM)) throw new Error(`No Chromium at ${CHROMIUM}: apt-get install -y chromium`);
  if (!fs.existsSync(path.join(ROOT, PLAYER_FILE))) throw new Error(`No player at ${PLAYER_FILE}: node scripts/build-player.cjs`);
  fs.mkdirSync(SHOTS, { recursive: true });
  stack = await startStack({ env: { SPEECH_LOCALE_VOICES: 'ar=ar-male-1', SPEECH_INSIGHTS: JSON.stringify({ flushSeconds: 1 }) } });

  const englishId = await publishArticleIn(stack, ARTICLE, 'en', {
    title: 'Listening, counted',
    body: [
      paragraph('The first sentence is short. The second sentence follows it. A third sentence comes next.'),
      heading('Reading along'),
      paragraph('Each sentence is a cue. The transcript follows the voice. A click on a sentence jumps to it.'),
      heading('Keys and colours'),
      paragraph('The keyboard does everything. The dark theme keeps its contrast. The last sentence ends the article.'),
    ],
  });
  const arabicId = await publishArticleIn(stack, ARTICLE, 'ar', {
    title: 'الاستماع المحسوب',
    body: [
      paragraph('الجملة الأولى قصيرة. الجملة الثانية تتبعها. تأتي الجملة الثالثة بعدهما.'),
      heading('القراءة مع الصوت'),
      paragraph('كل جملة لها وقتها. يتبع النص الصوت. تنتهي المقالة بهذه الجملة.'),
    ],
  });
  for (const [locale, documentId] of [
    ['en', englishId],
    ['ar', arabicId],
  ] as const) {
    await waitForStatus(stack, ARTICLE, documentId, 'completed', locale, 90_000);
    const articleId = `${documentId}-${locale}`;
    const json = (await publicNarration(stack, articleId)).body;
    const count = async (url: string) => ((await (await fetch(url)).text()).match(/-->/g) ?? []).length;
    narrations[locale] = { articleId, cues: await count(json.vttUrl), chapters: await count(json.chaptersUrl) };
  }
  expect(narrations.en.cues).toBeGreaterThanOrEqual(8);
  expect(narrations.en.chapters).toBe(3);
  expect(narrations.ar.chapters).toBe(2);

  site = http.createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://site');
    if (url.pathname !== '/article.html') return void response.writeHead(404).end();
    response
      .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
      .end(articlePage(stack.url, url.searchParams.get('id') ?? '', url.searchParams.has('no-insights')));
  });
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  // Another site than Strapi's (127.0.0.1), not only another origin.
  siteOrigin = `http://localhost:${(site.address() as AddressInfo).port}`;
  browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
}, 240_000);

afterAll(async () => {
  await browser?.close();
  if (site) await new Promise((resolve) => site.close(resolve));
  await stack?.stop();
});

describe('listening insights: what the player sends', () => {
  it.each(['en', 'ar'] as const)(
    'played to the end (%s): one play, progress 10 to 90 once each, one end; the seconds heard are the duration',
    async (locale) => {
      const { context, page, sent } = await openPage();
      try {
        await openArticle(page, locale);
        await speedUp(page);
        await playToEnd(page);
        const { duration } = await audioState(page);
        const events = await settle(sent, FULL_LISTENING.length);
        expect(kinds(events)).toEqual(FULL_LISTENING);
        for (const event of events) {
          expect(event.method).toBe('POST');
          expect(event.type).toBe('ping');
          expect(event.contentType).toBe('text/plain;charset=UTF-8');
          expect(event.cookie).toBeUndefined();
          expect(Object.keys(event.body).sort()).toEqual(
            event.body.event === 'progress' ? ['articleId', 'event', 'heard', 'percent'] : ['articleId', 'event', 'heard']
          );
          expect(event.body.articleId).toBe(narrations[locale].articleId);
          expect(Math.round(event.body.heard * 10) / 10).toBe(event.body.heard);
        }
        expect(events[0].body.heard).toBe(0);
        expect(Math.abs(heardOf(events) - duration)).toBeLessThanOrEqual(1);
        // What the server made of it, as the edit view's panel reads it: one play, one listener, 100 % reached.
        const totals = await countedWhen(locale, 1, 1);
        expect(totals).toMatchObject({ plays: 1, listeners: 1, reached: Array(10).fill(1) });
        expect(Math.abs(totals.secondsHeard - heardOf(events))).toBeLessThanOrEqual(0.11);
        // Progress comes in order, each after about its share of the duration was heard.
        let heard = 0;
        for (const { body } of events.slice(1, -1)) {
          heard += body.heard;
          expect(Math.abs(heard - (duration * body.percent!) / 100)).toBeLessThanOrEqual(1.2);
        }
      } finally {
        await context.close();
      }
    }
  );

  it('a pause and a resume is the same listening; playing after the end is a new one; a seek over milestones sends none', async () => {
    const before = await counted('en');
    const { context, page, sent } = await openPage();
    try {
      await openArticle(page, 'en');
      await speedUp(page);
      const { duration } = await audioState(page);
      const pause = await atShare(page, 0.15);
      await part(page, 'play').click();
      const pausedAt = await pause.reached();
      const paused = await settle(sent, 3);
      expect(kinds(paused)).toEqual(['play', 'progress 10', 'pause']);
      expect(Math.abs(heardOf(paused) - pausedAt)).toBeLessThanOrEqual(0.3);

      // Resumed: no second play; then a seek from past 30 % to 75 % skips 40 to 70.
      const seek = await atShare(page, 0.32, { seekTo: 0.75 });
      await part(page, 'play').click();
      const seekedAt = await seek.reached();
      await waitFor(async () => (await audioState(page)).ended, { what: 'the end', timeoutMs: 30_000, intervalMs: 250 });
      const first = await settle(sent, 8);
      expect(kinds(first)).toEqual(['play', 'progress 10', 'pause', 'progress 20', 'progress 30', 'progress 80', 'progress 90', 'end']);
      // Heard: up to the seek, then from 75 % to the end.
      expect(Math.abs(heardOf(first) - (seekedAt + duration * 0.25))).toBeLessThanOrEqual(1);

      // After the end, play begins a new listening; its pause sends its seconds.
      const again = await atShare(page, 0.15);
      await part(page, 'play').click();
      await again.reached();
      const all = await settle(sent, 11);
      expect(kinds(all.slice(8))).toEqual(['play', 'progress 10', 'pause']);
      expect(all[8].body.heard).toBe(0);
      expect(all.every((event) => event.type === 'ping' && event.cookie === undefined)).toBe(true);
      // The same browser, the same day: two more plays, still one listener.
      const after = await countedWhen('en', before.plays + 2);
      expect(after).toMatchObject({ plays: before.plays + 2, listeners: 1 });
    } finally {
      await context.close();
    }
  });

  it('leaving the page (hidden) sends the seconds heard as a pause, while the audio plays on', async () => {
    const { context, page, sent } = await openPage();
    try {
      await openArticle(page, 'en');
      await part(page, 'play').click();
      // Past 1.3 s: a loaded machine's sparse timeupdates leave the heard seconds a few tenths behind the clock.
      await waitFor(async () => (await audioState(page)).time > 1.3, { what: '1.3 s played', timeoutMs: 15_000 });
      // Hidden, as when another tab comes to the front (a headless page never is: the event is the page's).
      await page.evaluate(() => {
        Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => 'hidden' });
        document.dispatchEvent(new Event('visibilitychange'));
      });
      // (Progress may come in between: 10 % of this narration is about 2 s.)
      const pauses = async () => (await sent()).filter(({ body }) => body.event !== 'progress');
      await waitFor(async () => (await pauses()).length >= 2, { what: 'the pause' });
      const events = await sent();
      expect(kinds(events.filter(({ body }) => body.event !== 'progress'))).toEqual(['play', 'pause']);
      expect(heardOf(events)).toBeGreaterThan(0.8);
      expect((await audioState(page)).paused).toBe(false);
      // Left: the seconds heard since.
      await page.waitForTimeout(500);
      await page.evaluate(() => dispatchEvent(new PageTransitionEvent('pagehide')));
      await waitFor(async () => (await pauses()).length >= 3, { what: 'the second pause' });
      const left = await sent();
      expect(kinds(left.filter(({ body }) => body.event !== 'progress'))).toEqual(['play', 'pause', 'pause']);
      expect(heardOf(left) - heardOf(events)).toBeGreaterThan(0.3);
    } finally {
      await context.close();
    }
  });

  it('without sendBeacon, each event is a fetch without credentials', async () => {
    const { context, page, sent } = await openPage({ init: 'Navigator.prototype.sendBeacon = () => false;' });
    try {
      await openArticle(page, 'ar');
      await speedUp(page);
      await playToEnd(page);
      const events = await settle(sent, FULL_LISTENING.length);
      expect(kinds(events)).toEqual(FULL_LISTENING);
      for (const event of events) {
        expect(event.method).toBe('POST');
        expect(event.type).toBe('fetch');
        expect(event.cookie).toBeUndefined();
        expect(event.body.articleId).toBe(narrations.ar.articleId);
      }
    } finally {
      await context.close();
    }
  });

  it.each([
    ['Global Privacy Control', true, false],
    ['no-insights', false, true],
  ])('with %s, playing to the end and again sends nothing at all', async (_name, gpc, noInsights) => {
    const init = `${gpc ? "Object.defineProperty(Navigator.prototype, 'globalPrivacyControl', { configurable: true, get: () => true });" : ''}
      const beacon = Navigator.prototype.sendBeacon;
      Navigator.prototype.sendBeacon = function (...args) { window.__beacons = (window.__beacons || 0) + 1; return beacon.apply(this, args); };`;
    const before = await counted('en');
    const { context, page, toEvents } = await openPage({ init });
    try {
      await openArticle(page, 'en', noInsights);
      expect(await page.evaluate(() => (navigator as { globalPrivacyControl?: boolean }).globalPrivacyControl === true)).toBe(gpc);
      await speedUp(page);
      await playToEnd(page);
      await part(page, 'play').click();
      await waitFor(async () => (await audioState(page)).time > 1, { what: 'playing again' });
      await part(page, 'play').click();
      await page.evaluate(() => dispatchEvent(new PageTransitionEvent('pagehide')));
      await page.waitForTimeout(1_000);
      expect(toEvents).toEqual([]);
      expect(await page.evaluate(() => (window as { __beacons?: number }).__beacons ?? 0)).toBe(0);
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      expect(await counted('en')).toEqual(before);
    } finally {
      await context.close();
    }
  });
});

describe('accessibility', () => {
  const axeSource = fs.readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

  it.each([
    ['en', 'light'],
    ['en', 'dark'],
    ['ar', 'light'],
    ['ar', 'dark'],
  ] as const)('axe-core finds no WCAG 2.2 A or AA violation (%s, %s theme)', async (locale, colorScheme) => {
    const { context, page } = await openPage({ colorScheme });
    try {
      await openArticle(page, locale);
      // Into the second chapter: a highlighted sentence and a current chapter are checked too.
      await part(page, 'chapter').nth(1).click();
      await waitFor(async () => (await page.locator('speech-narration [part~="cue"][aria-current="true"]').count()) === 1, {
        what: 'a highlighted sentence',
      });
      const background = await part(page, 'player').evaluate((element) => getComputedStyle(element).backgroundColor);
      expect(background).toBe(colorScheme === 'dark' ? 'rgb(22, 27, 34)' : 'rgb(255, 255, 255)');
      await page.addScriptTag({ content: axeSource });
      const audit = () =>
        page.evaluate(async () => {
          const axe = (window as unknown as { axe: typeof import('axe-core') }).axe;
          const result = await axe.run(document.querySelector('speech-narration')!, {
            runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'] },
          });
          const summary = (rules: typeof result.passes) =>
            rules.map((rule) => ({
              id: rule.id,
              nodes: rule.nodes.map((node) => ({ target: node.target, summary: node.failureSummary })),
            }));
          return { violations: summary(result.violations), incomplete: summary(result.incomplete), passes: summary(result.passes) };
        });
      const passed = (results: Awaited<ReturnType<typeof audit>>, id: string) =>
        results.passes.find((rule) => rule.id === id)?.nodes.length ?? 0;
      // As rendered: the transcript box scrolls, and axe cannot see the colours of the sentences it hides.
      const rendered = await audit();
      expect(rendered.violations).toEqual([]);
      // axe reached into the shadow root: the buttons' names were checked there.
      expect(passed(rendered, 'button-name')).toBeGreaterThanOrEqual(3 + narrations[locale].chapters + narrations[locale].cues);
      expect(passed(rendered, 'label')).toBeGreaterThanOrEqual(1);
      // The transcript at full height (a documented property): every sentence's contrast is checked,
      // and nothing is left for a person to judge.
      await page.locator('speech-narration').evaluate((element) => element.style.setProperty('--speech-transcript-height', 'none'));
      const expanded = await audit();
      expect(expanded.violations).toEqual([]);
      expect(expanded.incomplete.filter((rule) => rule.id === 'color-contrast')).toEqual([]);
      // axe's color-contrast rule takes joined Arabic letters for an icon ligature (its canvas test)
      // and skips most Arabic text: every text of the player is measured with axe's own colour
      // functions too, in both languages.
      if (locale === 'en')
        expect(passed(expanded, 'color-contrast')).toBeGreaterThanOrEqual(narrations[locale].cues + narrations[locale].chapters);
      const contrasts = await page.evaluate(() => {
        type Color = object;
        const axe = (window as unknown as { axe: typeof import('axe-core') }).axe;
        // axe.commons.color is not in axe-core's types.
        const color = (
          axe.commons as unknown as {
            color: {
              getBackgroundColor(element: Element, stack: Element[]): Color | null;
              getForegroundColor(element: Element, noScroll: boolean, background?: Color): Color | null;
              getContrast(background: Color, foreground: Color): number;
            };
          }
        ).color;
        const root = document.querySelector('speech-narration')!.shadowRoot!;
        axe.setup(document);
        try {
          return [...root.querySelectorAll('.t, .tm, a, select, [part~="back"] span, [part~="cue"], [part~="chapter"]')].map((element) => {
            const background = color.getBackgroundColor(element, []);
            const foreground = color.getForegroundColor(element as HTMLElement, false, background ?? undefined);
            const ratio = background && foreground ? color.getContrast(background, foreground) : 0;
            return { text: element.textContent, ratio: Math.floor(ratio * 100) / 100 };
          });
        } finally {
          axe.teardown();
        }
      });
      expect(contrasts.length).toBeGreaterThanOrEqual(narrations[locale].cues + 2 * narrations[locale].chapters + 4);
      expect(contrasts.filter(({ ratio }) => ratio < 4.5)).toEqual([]);
      if (locale === 'ar') {
        // Numbers in place: a chapter's time leads it, at its right; the clock reads left to right.
        const chapter = part(page, 'chapter').nth(0);
        const [time, box] = await Promise.all([chapter.locator('.tm').boundingBox(), chapter.boundingBox()]);
        expect(box!.x + box!.width - (time!.x + time!.width)).toBeLessThan(20);
        expect(await part(page, 'time').innerText()).toMatch(/^\d+:\d\d \/ \d+:\d\d$/);
        expect(await part(page, 'time').evaluate((element) => getComputedStyle(element).direction)).toBe('ltr');
      }
      await part(page, 'player').screenshot({ path: path.join(SHOTS, `${locale}-${colorScheme}.png`) });
    } finally {
      await context.close();
    }
  });

  /** The `part` of the focused element inside the player, and whether its focus ring shows. */
  function focused(page: Page) {
    return page.evaluate(() => {
      const element = document.activeElement?.shadowRoot?.activeElement;
      if (!element) return null;
      const style = getComputedStyle(element);
      return {
        part: element.getAttribute('part'),
        ring: element.matches(':focus-visible') && style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) >= 2,
      };
    });
  }

  it.each([
    ['en', 'light'],
    ['ar', 'dark'],
  ] as const)(
    'the keyboard alone reaches every control in order, with a visible focus, and operates them (%s, %s)',
    async (locale, colorScheme) => {
      const { context, page } = await openPage({ colorScheme });
      try {
        await openArticle(page, locale);
        const order = [
          // The "AI voice" label: its tooltip names the voice to keyboard users too.
          'ai-label',
          'button play',
          'button back',
          'button forward',
          'seek',
          'speed',
          'download',
          ...Array.from({ length: narrations[locale].chapters }, () => 'chapter'),
          'cue',
        ];
        for (const expected of order) {
          await page.keyboard.press('Tab');
          expect(await focused(page)).toEqual({ part: expected, ring: true });
        }
        for (const expected of order.slice(0, -1).reverse()) {
          await page.keyboard.press('Shift+Tab');
          expect(await focused(page)).toEqual({ part: expected, ring: true });
        }
        // Back at the label; one Tab to play: Enter plays, Space pauses.
        await page.keyboard.press('Tab');
        expect(await focused(page)).toEqual({ part: 'button play', ring: true });
        await page.keyboard.press('Enter');
        await waitFor(async () => !(await audioState(page)).paused && (await audioState(page)).time > 0.2, {
          what: 'playing',
          timeoutMs: 15_000,
        });
        await page.keyboard.press('Space');
        await waitFor(async () => (await audioState(page)).paused, { what: 'paused' });
        // Forward 15 s, then the seek bar: Home, Right, End.
        await page.keyboard.press('Tab');
        await page.keyboard.press('Tab');
        const before = (await audioState(page)).time;
        await page.keyboard.press('Enter');
        const { duration } = await audioState(page);
        expect((await audioState(page)).time).toBeCloseTo(Math.min(before + 15, duration), 1);
        await page.keyboard.press('Tab');
        expect((await focused(page))?.part).toBe('seek');
        await page.keyboard.press('Home');
        expect((await audioState(page)).time).toBe(0);
        await page.keyboard.press('ArrowRight');
        expect((await audioState(page)).time).toBeCloseTo(5, 1);
        await page.keyboard.press('End');
        expect((await audioState(page)).time).toBeCloseTo(duration, 1);
        await page.keyboard.press('Home');
        // The speed: Down picks the next one.
        await page.keyboard.press('Tab');
        await page.keyboard.press('ArrowDown');
        expect((await audioState(page)).rate).toBe(1.25);
        // A chapter: Enter jumps to it.
        await page.keyboard.press('Tab');
        await page.keyboard.press('Tab');
        await page.keyboard.press('Tab');
        expect((await focused(page))?.part).toBe('chapter');
        await page.keyboard.press('Enter');
        expect(await part(page, 'chapter').nth(1).getAttribute('aria-current')).toBe('true');
        expect((await audioState(page)).time).toBeGreaterThan(0);
        await page.screenshot({ path: path.join(SHOTS, `keyboard-${locale}.png`) });
      } finally {
        await context.close();
      }
    }
  );

  it.each([
    ['reduce', 'auto'],
    ['no-preference', 'smooth'],
  ] as const)('with reduced motion %s the transcript scrolls %s; nothing is animated', async (reducedMotion, behavior) => {
    const { context, page } = await openPage({
      reducedMotion,
      init: `const scrollTo = Element.prototype.scrollTo;
        Element.prototype.scrollTo = function (...args) { (window.__scrolls ||= []).push(args[0]); return scrollTo.apply(this, args); };`,
    });
    try {
      await openArticle(page, 'en');
      // The last sentence, clicked by script: the transcript box must scroll to it.
      await page.evaluate(() => {
        const cues = document.querySelector('speech-narration')!.shadowRoot!.querySelectorAll<HTMLElement>('[part~="cue"]');
        cues[cues.length - 1].click();
      });
      await waitFor(async () => (await page.evaluate(() => ((window as { __scrolls?: unknown[] }).__scrolls ?? []).length)) > 0, {
        what: 'the transcript scrolled',
      });
      const scrolls = await page.evaluate(() => (window as unknown as { __scrolls: Array<{ behavior?: string }> }).__scrolls);
      expect(scrolls.map((scroll) => scroll.behavior)).toEqual(scrolls.map(() => behavior));
      expect(await page.evaluate(() => window.scrollY)).toBe(0);
      // No transition and no animation anywhere in the player, hovered and focused too.
      await part(page, 'play').hover();
      await page.keyboard.press('Tab');
      const motion = await page.evaluate(() => {
        const root = document.querySelector('speech-narration')!.shadowRoot!;
        const moving = [...root.querySelectorAll('*')].filter((element) => {
          const style = getComputedStyle(element);
          return style.transitionDuration.split(',').some((d) => parseFloat(d) > 0) || style.animationName !== 'none';
        });
        return {
          moving: moving.map((element) => element.getAttribute('part') ?? element.tagName),
          animations: root.getAnimations().length,
        };
      });
      expect(motion).toEqual({ moving: [], animations: 0 });
    } finally {
      await context.close();
    }
  });

  it('raised no page or console error', () => {
    expect(problems).toEqual([]);
  });
});
