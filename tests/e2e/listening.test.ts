/**
 * Listening insights in the admin (issue 25) in a real headless Chromium against the playground
 * Strapi and the speech-service emulator: one article narrated in English and in Arabic, listened
 * to through the public events route as the player sends them (English to the end, Arabic to the
 * middle), then the edit view's listening card, Settings -> Speech listening (totals, plays per
 * day, the most listened articles, the locales, the CSV), the home page widget, the same in
 * Arabic (right to left), an admin who may not read articles, and axe-core on the card.
 *
 * Needs the playground's admin bundle, built after the plugin:
 *   npm run build
 *   cd playground && node ../node_modules/@strapi/strapi/bin/strapi.js build
 *
 * One Strapi boot for the whole file; the steps run in order and build on each other.
 * Screenshots go to test-artifacts/e2e/.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Browser, Locator, Page } from 'playwright-core';
import { LISTENING_CSV_COLUMNS, type GetDocumentInsightsResponse, type GetInsightsResponse } from '../../shared/contracts/insights';
import { blocks, contentManager, createAdmin, waitFor, type Stack } from '../integration/harness';
import { publicNarration, waitForStatus } from '../integration/narration-helpers';
import { ARTIFACTS, closeAdminSession, expectAttribute, expectText, logIn, openAdminSession } from './browser';

jest.setTimeout(120_000);

const ARTICLE = 'api::article.article';
const LISTENING_PAGE = '/admin/settings/speech-listening';
const TITLE = 'Heard to the end';
const ARABIC_TITLE = 'مقال مسموع';
/** What the player runs in: the server counts nothing for a request without a browser's user agent. */
const BROWSER_AGENT = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];

let stack: Stack;
let browser: Browser;
let page: Page;
let documentId: string;
/** Console errors, page errors and failed plugin requests: the admin must produce none. */
const problems: string[] = [];

async function shot(name: string, locator?: Locator) {
  const file = path.join(ARTIFACTS, `${name}.png`);
  if (locator) await locator.screenshot({ path: file });
  else await page.screenshot({ path: file });
}

/** One event as the player sends it (a JSON text); the server answers 204 and says whether it counted. */
async function send(event: Record<string, unknown>) {
  const response = await stack.request('/api/speech/insights/events', {
    method: 'POST',
    headers: { 'content-type': 'text/plain;charset=UTF-8', 'user-agent': BROWSER_AGENT },
    body: JSON.stringify(event),
  });
  return { status: response.status, counted: response.headers.get('speech-insights') };
}

/**
 * One listening of `articleId` up to `percent` (100: to the end), each event with the seconds heard
 * since the previous one, as the player reports them (to a tenth); a listening stopped before the
 * end ends with a pause a little later. Returns the seconds reported.
 */
async function listen(articleId: string, duration: number, percent: number) {
  const step = Math.round(duration) / 10;
  const answers = [await send({ articleId, event: 'play', heard: 0 })];
  for (let at = 10; at <= Math.min(percent, 90); at += 10)
    answers.push(await send({ articleId, event: 'progress', percent: at, heard: step }));
  answers.push(await send(percent >= 100 ? { articleId, event: 'end', heard: step } : { articleId, event: 'pause', heard: step }));
  expect(answers).toEqual(answers.map(() => ({ status: 204, counted: 'counted' })));
  return (answers.length - 1) * step;
}

async function documentInsights(locale: string, token = stack.adminToken) {
  const response = await fetch(
    `${stack.url}/speech/insights/document/${documentId}?contentType=${encodeURIComponent(ARTICLE)}&locale=${locale}&days=30`,
    { headers: { authorization: `Bearer ${token}` } }
  );
  return { status: response.status, body: (await response.json()) as GetDocumentInsightsResponse };
}

async function siteInsights(days = 30): Promise<GetInsightsResponse> {
  const { status, body } = await stack.admin('GET', `/speech/insights?days=${days}`);
  expect(status).toBe(200);
  return body as GetInsightsResponse;
}

/** The value of a labelled figure (its last line: the label is above it). */
async function factValue(locator: Locator) {
  return (await locator.innerText()).trim().split('\n').at(-1)!.trim();
}

/** How the admin's browser writes a number or a share in `locale` (Arabic may use its own digits and sign). */
const formatted = (locale: string, value: number, percent = false) =>
  page.evaluate(
    ({ locale, value, percent }) =>
      new Intl.NumberFormat(locale, percent ? { style: 'percent', maximumFractionDigits: 0 } : {}).format(value),
    { locale, value, percent }
  );

/** axe-core's WCAG 2.2 A and AA rules on one element of the page: the violations, as rule ids and targets. */
async function axeViolations(selector: string) {
  if (!(await page.evaluate(() => 'axe' in window))) {
    // Evaluated, not a <script>: the admin's Content Security Policy refuses inline scripts.
    await page.evaluate(fs.readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8'));
  }
  return page.evaluate(
    async ({ selector, tags }) => {
      const axe = (window as unknown as { axe: typeof import('axe-core') }).axe;
      const result = await axe.run(document.querySelector(selector)!, { runOnly: { type: 'tag', values: tags } });
      return {
        violations: result.violations.map((rule) => ({ id: rule.id, targets: rule.nodes.map((node) => node.target.join(' ')) })),
        passes: result.passes.map((rule) => rule.id),
      };
    },
    { selector, tags: WCAG_TAGS }
  );
}

function editView(locale: string) {
  return `${stack.url}/admin/content-manager/collection-types/${ARTICLE}/${documentId}?plugins[i18n][locale]=${locale}`;
}

beforeAll(async () => {
  ({ stack, browser, page } = await openAdminSession('tests/e2e/listening.test.ts', problems, {
    // Flushed every second, so the figures show soon after the events.
    env: { SPEECH_INSIGHTS: JSON.stringify({ flushSeconds: 1 }) },
  }));
}, 150_000);

afterAll(() => closeAdminSession({ browser, stack }));

let seconds: { en: number; ar: number };

it('an article narrated in English and Arabic is listened to: English to the end, Arabic to the middle', async () => {
  await logIn(page, stack.url);
  const articles = contentManager(stack, ARTICLE);
  ({ documentId } = await articles.create(
    { title: TITLE, summary: 'Heard.', body: blocks('A sentence to listen to.', 'And another one.') },
    'en'
  ));
  await articles.publish(documentId, 'en');
  await articles.update(documentId, { title: ARABIC_TITLE, summary: 'مسموع.', body: blocks('جملة للاستماع.', 'وجملة أخرى.') }, 'ar');
  await articles.publish(documentId, 'ar');
  await waitForStatus(stack, ARTICLE, documentId, 'completed', 'en');
  await waitForStatus(stack, ARTICLE, documentId, 'completed', 'ar');

  const durations = {
    en: Number((await publicNarration(stack, `${documentId}-en`)).body.durationSeconds),
    ar: Number((await publicNarration(stack, `${documentId}-ar`)).body.durationSeconds),
  };
  expect(durations.en).toBeGreaterThan(0);
  seconds = { en: await listen(`${documentId}-en`, durations.en, 100), ar: await listen(`${documentId}-ar`, durations.ar, 50) };

  // Counted in memory, then written every second: wait until each listening's last event is in.
  const flushed = (locale: 'en' | 'ar') =>
    waitFor(
      async () => {
        const answer = await documentInsights(locale);
        return answer.status === 200 && Math.abs(answer.body.totals.secondsHeard - seconds[locale]) < 0.05 ? answer : null;
      },
      { timeoutMs: 20_000, what: `the ${locale} listening to be counted` }
    );
  const english = await flushed('en');
  expect(english.body.totals).toEqual({
    plays: 1,
    listeners: 1,
    reached: [1, 1, 1, 1, 1, 1, 1, 1, 1, 1],
    secondsHeard: expect.any(Number),
    downloads: 0,
  });
  expect(english.body.totals.secondsHeard).toBeCloseTo(seconds.en, 5);
  expect((await flushed('ar')).body.totals).toMatchObject({ plays: 1, listeners: 1, reached: [1, 1, 1, 1, 1, 0, 0, 0, 0, 0] });
});

it('the edit view’s card shows 1 play, 1 listener, 100% finished, and where listeners stop', async () => {
  await page.goto(editView('en'));
  const card = page.getByTestId('speech-panel').getByTestId('speech-listening-card');
  await card.waitFor();
  await card.getByRole('heading', { name: 'Listening, last 30 days' }).waitFor();
  await expectText(card.getByTestId('speech-listening-card-plays'), '1');
  expect(await card.getByTestId('speech-listening-card-plays').innerText()).toBe('1');
  expect(await card.getByTestId('speech-listening-card-listeners').innerText()).toBe('1');
  await expectText(card.getByTestId('speech-listening-card-finished'), '100%');
  // The curve: one image with its summary, and every tenth in a list for assistive technology.
  await card.getByRole('img', { name: 'Where listeners stop: 100% of plays reached the middle, 100% the end.', exact: false }).waitFor();
  const points = await card.getByTestId('speech-listening-curve-points').locator('li').allTextContents();
  expect(points).toHaveLength(10);
  expect(points[0]).toBe('10% of the audio: 100% of plays');
  expect(points[9]).toBe('100% of the audio: 100% of plays');
  await shot('edit-listening', card);
});

it('axe-core finds no WCAG 2.2 A or AA violation in the card, in English and in Arabic', async () => {
  const selector = '[data-testid="speech-listening-card"]';
  const english = await axeViolations(selector);
  expect(english.violations).toEqual([]);
  // The rules that matter here did run on the card.
  expect(english.passes).toEqual(expect.arrayContaining(['svg-img-alt', 'definition-list', 'color-contrast']));

  await page.evaluate(() => localStorage.setItem('strapi-admin-language', 'ar'));
  try {
    await page.goto(editView('ar'));
    const card = page.getByTestId('speech-listening-card');
    await card.waitFor();
    await expectAttribute(card, 'dir', 'rtl');
    await card.getByRole('heading', { name: `الاستماع، آخر ${await formatted('ar', 30)} يومًا` }).waitFor();
    // Arabic to the middle: one play, nobody finished; the figures as the admin's locale writes them.
    expect(await card.getByTestId('speech-listening-card-plays').innerText()).toBe(await formatted('ar', 1));
    expect(await card.getByTestId('speech-listening-card-finished').innerText()).toBe(await formatted('ar', 0, true));
    // The summary's shares keep their direction marks (U+200E), which an accessible name may drop: read the label itself.
    expect(await card.getByRole('img').getAttribute('aria-label')).toContain(
      `${await formatted('ar', 1, true)} من مرات التشغيل بلغت المنتصف، و${await formatted('ar', 0, true)} بلغت النهاية`
    );
    const arabic = await axeViolations(selector);
    expect(arabic.violations).toEqual([]);
    await shot('edit-listening-ar', page.getByTestId('speech-panel'));
  } finally {
    await page.evaluate(() => localStorage.setItem('strapi-admin-language', 'en'));
  }
});

it('Settings -> Speech listening shows the totals the server counted, plays per day and the most listened articles', async () => {
  const site = await siteInsights(30);
  // What the server counted: two plays, one listener each, one of two finished.
  expect(site.totals).toMatchObject({ plays: 2, listeners: 2, downloads: 0 });
  expect(site.totals.reached[9]).toBe(1);
  expect(site.totals.secondsHeard).toBeCloseTo(seconds.en + seconds.ar, 5);

  await page.goto(`${stack.url}/admin/settings`);
  await page.getByRole('link', { name: 'Speech listening' }).click();
  await page.getByRole('heading', { name: 'Speech listening' }).waitFor();
  const totals = page.getByTestId('speech-listening-totals');
  await totals.waitFor();
  expect(await factValue(totals.getByTestId('speech-listening-plays'))).toBe(String(site.totals.plays));
  expect(await factValue(totals.getByTestId('speech-listening-listeners'))).toBe(String(site.totals.listeners));
  expect(await factValue(totals.getByTestId('speech-listening-finished'))).toBe('50%');
  expect(await factValue(totals.getByTestId('speech-listening-heard'))).toBe(`${Math.round(site.totals.secondsHeard)} s`);
  await expectText(totals, 'FEED DOWNLOADS (IAB RULES, AS A REDIRECTING SERVER SEES THEM)');
  expect(await factValue(totals.getByTestId('speech-listening-downloads'))).toBe('0');

  // Plays per day: one image named by its title and summary; today's bar holds both plays.
  const chart = page.getByTestId('speech-listening-chart').getByRole('img', { name: /^Plays per day 30 days, 2 plays in all/ });
  await chart.waitFor();
  await page.setViewportSize({ width: 1680, height: 1800 });
  await shot('listening-en');
  await page.setViewportSize({ width: 1680, height: 1000 });
  await chart.focus();
  await page.keyboard.press('End');
  await expectText(page.getByTestId('speech-listening-tooltip'), '2 plays');
  await page.getByTestId('speech-listening-table-toggle').click();
  const today = page.getByTestId('speech-listening-table').locator('tbody tr').first();
  expect((await today.locator('td').allInnerTexts()).slice(1, 4)).toEqual(['2', '2', '50%']);

  // The most listened articles: both locales, each a link to its edit view.
  const top = page.getByTestId('speech-listening-top');
  const englishRow = top.locator('tr', { hasText: TITLE });
  expect((await englishRow.locator('td').allInnerTexts()).slice(1, 4)).toEqual(['1', '1', '100%']);
  const arabicRow = top.locator('tr', { hasText: ARABIC_TITLE });
  expect((await arabicRow.locator('td').allInnerTexts()).slice(1, 4)).toEqual(['1', '1', '0%']);
  expect(await englishRow.getByRole('link', { name: TITLE }).getAttribute('href')).toBe(
    `/admin/content-manager/collection-types/${encodeURIComponent(ARTICLE)}/${documentId}?plugins[i18n][locale]=en`
  );
  const locales = page.getByTestId('speech-listening-locales');
  expect((await locales.locator('tbody tr').allInnerTexts()).map((row) => row.split('\t')[0].trim()).sort()).toEqual(['ar', 'en']);

  // Seven days: today's listening is in them too.
  const week = page.waitForResponse((response) => response.url().includes('/speech/insights?days=7'));
  await page.getByTestId('speech-listening-period').getByRole('button', { name: '7 days' }).click();
  expect((await week).status()).toBe(200);
  await page
    .getByTestId('speech-listening-chart')
    .getByRole('img', { name: /^Plays per day 7 days, 2 plays in all/ })
    .waitFor();
});

it('exports the listening as a CSV file fetched with the admin’s token: a row per article and day', async () => {
  const download = page.waitForEvent('download');
  await page.getByTestId('speech-listening-export').click();
  const file = await download;
  expect(file.suggestedFilename()).toMatch(/\.csv$/);
  const saved = path.join(ARTIFACTS, 'listening.csv');
  await file.saveAs(saved);
  const [header, ...rows] = fs.readFileSync(saved, 'utf8').trim().split(/\r?\n/);
  expect(header.split(',')).toEqual([...LISTENING_CSV_COLUMNS]);
  const cells = (locale: string) => {
    const row = rows.find((line) => line.includes(`${documentId}-${locale}`));
    expect(row).toBeDefined();
    return Object.fromEntries(header.split(',').map((column, index) => [column, row!.split(',')[index]]));
  };
  expect(cells('en')).toMatchObject({ documentId, locale: 'en', title: TITLE, plays: '1', listeners: '1', reached100: '1' });
  expect(cells('ar')).toMatchObject({ documentId, locale: 'ar', plays: '1', reached50: '1', reached60: '0' });
});

it('the home page widget lists the week’s most listened articles and links to the listening page', async () => {
  await page.goto(`${stack.url}/admin`);
  const widget = page.getByTestId('speech-listening-widget');
  await widget.waitFor();
  await expectText(widget, TITLE);
  await expectText(widget, ARABIC_TITLE);
  expect(await widget.locator('li', { hasText: TITLE }).innerText()).toContain('1 play');
  await widget.scrollIntoViewIfNeeded();
  await shot('home-listening-widget', widget);
  await page.getByRole('link', { name: 'See the listening' }).click();
  await page.getByRole('heading', { name: 'Speech listening' }).waitFor();
});

it('in Arabic the listening page reads right to left, its figures in the Arabic locale', async () => {
  await page.evaluate(() => localStorage.setItem('strapi-admin-language', 'ar'));
  try {
    await page.goto(`${stack.url}${LISTENING_PAGE}`);
    await page.getByRole('heading', { name: 'الاستماع إلى الكلام' }).waitFor();
    await expectAttribute(page.getByTestId('speech-listening'), 'dir', 'rtl');
    const totals = page.getByTestId('speech-listening-totals');
    expect(await factValue(totals.getByTestId('speech-listening-plays'))).toBe(await formatted('ar', 2));
    expect(await factValue(totals.getByTestId('speech-listening-finished'))).toBe(await formatted('ar', 0.5, true));
    await expectText(totals, 'تنزيلات الخلاصة');
    await expectText(page.getByTestId('speech-listening-top'), ARABIC_TITLE);
    // Time runs from the right: today's bar is left of the first day's.
    const layout = await page
      .getByTestId('speech-listening-chart')
      .getByRole('img')
      .evaluate((element) => {
        const bars = [...element.querySelectorAll('g > rect:first-child')].map((rect) => Number(rect.getAttribute('x')));
        return { first: bars[0], last: bars[bars.length - 1] };
      });
    expect(layout.last).toBeLessThan(layout.first);
    // Strapi's admin does not flip the page for Arabic; the plugin's own layout must survive it.
    await page.evaluate(() => document.documentElement.setAttribute('dir', 'rtl'));
    await page.setViewportSize({ width: 1680, height: 1800 });
    await shot('listening-ar-rtl');
    await page.setViewportSize({ width: 1680, height: 1000 });
  } finally {
    await page.evaluate(() => localStorage.setItem('strapi-admin-language', 'en'));
  }
});

it('an admin who may not read articles sees no listening of them: zero on the page, an empty widget, 403 on the document', async () => {
  const role = await stack.admin('POST', '/admin/roles', { name: 'No articles', description: 'Narrate, read no article' });
  expect(role.status).toBe(201);
  const permissions = ['plugin::speech.narrate'].map((action) => ({ action, subject: null, properties: {}, conditions: [] }));
  expect((await stack.admin('PUT', `/admin/roles/${role.body.data.id}/permissions`, { permissions })).status).toBe(200);
  const outsider = await createAdmin(stack, 'no-articles@example.com', role.body.data.id);
  expect((await documentInsights('en', outsider.token)).status).toBe(403);
  const theirs = await outsider.call('GET', '/speech/insights?days=30');
  expect(theirs.status).toBe(200);
  expect(theirs.body.totals.plays).toBe(0);
  expect(theirs.body.topArticles).toEqual([]);

  const context = await browser.newContext({ viewport: { width: 1680, height: 1000 }, locale: 'en-US' });
  const other = await context.newPage();
  try {
    await other.goto(`${stack.url}/admin/auth/login`);
    await other.getByLabel('Email').fill('no-articles@example.com');
    await other.getByLabel('Password', { exact: false }).first().fill('Passw0rd-For-Tests!');
    await other.getByRole('button', { name: 'Login' }).click();
    // Every admin has the widget; theirs is empty.
    await expectText(other.getByTestId('speech-listening-widget'), 'No narration was played this week.');
    await other.goto(`${stack.url}${LISTENING_PAGE}`);
    const totals = other.getByTestId('speech-listening-totals');
    await totals.waitFor();
    expect(await factValue(totals.getByTestId('speech-listening-plays'))).toBe('0');
    expect(await factValue(totals.getByTestId('speech-listening-finished'))).toBe('-');
    await expectText(other.getByTestId('speech-listening-days'), 'No narration was played over these days.');
    await expectText(other.getByTestId('speech-listening-top'), 'No article was played over these days.');
    await other.screenshot({ path: path.join(ARTIFACTS, 'listening-no-articles.png') });
  } finally {
    await context.close();
  }
});

it('produced no console errors and no failed plugin requests', () => {
  expect(problems).toEqual([]);
});
