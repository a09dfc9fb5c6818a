/**
 * The usage admin of issue 24 in a real headless Chromium against the playground Strapi and the
 * speech-service emulator: the usage page (chart, its table, the month against the budget, the
 * ledger's CSV), the budget card of the settings, a narration held by the budget and let through,
 * the home page widget (for settings readers only), and the usage page in Arabic, right to left.
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
import type { Browser, Page } from 'playwright-core';
import type { GetUsageResponse } from '../../shared/contracts/usage';
import { blocks, contentManager, createAdmin, outsideTurnOf, waitFor, type Stack } from '../integration/harness';
import { ARTIFACTS, closeAdminSession, expectAttribute, expectText, logIn, openAdminSession } from './browser';

jest.setTimeout(120_000);

const ARTICLE = 'api::article.article';
const USAGE_PAGE = '/admin/settings/speech-usage';

let stack: Stack;
let browser: Browser;
let page: Page;
/** Console errors, page errors and failed plugin requests: the admin must produce none. */
const problems: string[] = [];

async function shot(name: string) {
  await page.screenshot({ path: path.join(ARTIFACTS, `${name}.png`), fullPage: true });
}

async function usage(days = 30): Promise<GetUsageResponse> {
  const { status, body } = await stack.admin('GET', `/speech/usage?days=${days}`);
  expect(status).toBe(200);
  return body as GetUsageResponse;
}

async function narrationOf(documentId: string) {
  const { body } = await stack.admin('GET', `/speech/narrations/document/${documentId}?contentType=${ARTICLE}&locale=en`);
  return (body?.data ?? [])[0] as { status: string; lastErrorCode: string | null; credits: number | null } | undefined;
}

async function publishArticle(title: string, text: string) {
  const cm = contentManager(stack, ARTICLE);
  const { documentId } = await cm.create({ title, summary: `${title}.`, body: blocks(text) });
  await cm.publish(documentId);
  return documentId;
}

async function waitForStatus(documentId: string, accept: (row: Awaited<ReturnType<typeof narrationOf>>) => boolean, what: string) {
  await waitFor(async () => accept(await narrationOf(documentId)), { timeoutMs: 45_000, what });
}

/** An English figure as shown (`1,234`) as a number. */
const figure = (text: string) => Number(text.replace(/[^\d-]/g, ''));

beforeAll(async () => {
  // The file compares what it spends with the month to date: all of it within one month.
  await outsideTurnOf('month', 6 * 60_000);
  ({ stack, browser, page } = await openAdminSession('tests/e2e/usage.test.ts', problems));
}, 520_000);

afterAll(() => closeAdminSession({ browser, stack }));

it('logs in, and two published articles are narrated (the ledger has entries)', async () => {
  await logIn(page, stack.url);
  const first = await publishArticle('Counted in the ledger', 'The first article costs a few credits. It is narrated once.');
  const second = await publishArticle('Counted again', 'A second article, a little longer than the first, so the two bars differ.');
  for (const documentId of [first, second]) {
    await waitForStatus(documentId, (row) => row?.status === 'completed', `the narration of ${documentId}`);
  }
  const answer = await usage();
  expect(answer.monthToDate.credits).toBeGreaterThan(0);
  expect(answer.topArticles.map((article) => article.title)).toEqual(expect.arrayContaining(['Counted in the ledger', 'Counted again']));
});

it('the usage page shows the month to date, and its chart’s table adds up to the month to date the API gives', async () => {
  const expected = (await usage()).monthToDate.credits;
  // The ledger's month is what the service took: the emulator's own ledger, to the credit.
  const { credits, startingCredits } = await stack.control<{ credits: number; startingCredits: number }>('GET', '/credits');
  expect(expected).toBe(startingCredits - credits);
  await page.goto(`${stack.url}${USAGE_PAGE}`);
  await page.getByRole('heading', { name: 'Speech usage' }).waitFor();
  await expectText(page.getByTestId('speech-month-credits'), `${expected.toLocaleString('en-US')} credits this month`);

  // One image for assistive technology, named by its title and summary.
  const chart = page.getByTestId('speech-usage-chart').getByRole('img', { name: /^Credits per day \d+ days, [\d,]+ credits in all/ });
  await chart.waitFor();
  expect(await chart.locator('rect[fill^="#"]').count()).toBeGreaterThan(0);
  // The data table is the chart's equivalent: in the page for assistive technology, shown on demand.
  await page.getByTestId('speech-usage-table-toggle').click();
  const sum = page.getByTestId('speech-usage-month-sum');
  await sum.waitFor();
  expect(figure(await sum.innerText())).toBe(expected);

  // Keyboard: the chart takes the focus, End goes to today, whose figures show as a tooltip.
  await chart.focus();
  await page.keyboard.press('End');
  await expectText(page.getByTestId('speech-usage-tooltip'), 'credits');
  await shot('usage-en');

  // Stacked by locale: the legend names the locale.
  await page.getByTestId('speech-usage-by').getByRole('button', { name: 'Locale' }).click();
  await expectText(page.getByTestId('speech-usage-legend'), 'en');
  // The most expensive articles of the month, with links to their edit view.
  await expectText(page.getByTestId('speech-usage-top'), 'Counted again');
});

it('exports the ledger as a CSV file, fetched with the admin’s token', async () => {
  const download = page.waitForEvent('download');
  await page.getByTestId('speech-usage-export').click();
  const file = await download;
  expect(file.suggestedFilename()).toMatch(/\.csv$/);
  const saved = path.join(ARTIFACTS, 'usage-ledger.csv');
  await file.saveAs(saved);
  const [header, ...rows] = fs.readFileSync(saved, 'utf8').trim().split(/\r?\n/);
  expect(header.split(',')[0].replace(/"/g, '')).toBe('acceptedAt');
  expect(rows.length).toBeGreaterThanOrEqual(2);
});

it('Settings -> Speech: a budget is checked, saved and shown against the month to date', async () => {
  const spent = (await usage()).monthToDate.credits;
  await page.goto(`${stack.url}/admin/settings/speech`);
  const card = page.getByTestId('speech-budget');
  await card.scrollIntoViewIfNeeded();
  await expectText(card, `${spent.toLocaleString('en-US')} credits this month`);

  // A time zone the browser does not know is refused before anything is sent.
  const zone = card.getByTestId('speech-budget-time-zone');
  await zone.fill('Mars/Olympus_Mons');
  await page.getByTestId('speech-save').click();
  await expectText(card, 'Write a time zone such as Europe/Berlin');
  await zone.fill('Asia/Riyadh');

  // Exactly what the month spent: the next narration would go over it.
  const budget = spent;
  await card.getByTestId('speech-budget-credits').fill(String(budget));
  await page.getByTestId('speech-save').click();
  await page.getByText('Settings saved.').waitFor();
  const { body } = await stack.admin('GET', '/speech/settings');
  expect(body.settings.budget).toMatchObject({ monthlyCredits: budget, timeZone: 'Asia/Riyadh' });
  await expectText(card, `${spent.toLocaleString('en-US')} of ${budget.toLocaleString('en-US')} credits this month`);
  await expectAttribute(card.getByTestId('speech-budget-meter'), 'data-state', 'reached');
  await card.screenshot({ path: path.join(ARTIFACTS, 'settings-budget.png') });
});

it('a narration over the budget waits ("Monthly budget reached") until a settings editor lets it through', async () => {
  const documentId = await publishArticle('Over the budget', 'This one would take the month over its budget, so it waits.');
  await waitForStatus(documentId, (row) => row?.lastErrorCode === 'BUDGET_REACHED', 'the narration to wait for the budget');

  // The list view says it too.
  await page.goto(`${stack.url}/admin/content-manager/collection-types/${ARTICLE}`);
  const listBadge = page.locator('tr', { hasText: 'Over the budget' }).getByTestId('speech-badge');
  await expectAttribute(listBadge, 'data-kind', 'budget');
  await expectText(listBadge, 'Monthly budget reached');

  await page.goto(`${stack.url}/admin/content-manager/collection-types/${ARTICLE}/${documentId}?plugins[i18n][locale]=en`);
  const panel = page.getByTestId('speech-panel');
  await expectAttribute(panel.getByTestId('speech-badge'), 'data-kind', 'budget');
  await expectText(panel.getByTestId('speech-badge'), 'Monthly budget reached');
  const hold = panel.getByTestId('speech-budget-hold');
  const credits = (await narrationOf(documentId))!.credits!;
  await expectText(hold, `It would cost ${credits.toLocaleString('en-US')} credits.`);
  await panel.screenshot({ path: path.join(ARTIFACTS, 'edit-budget-hold.png') });
  expect((await usage()).waiting).toMatchObject({ articles: 1, credits });

  await hold.getByTestId('speech-let-through').click();
  await waitForStatus(documentId, (row) => row?.status === 'completed', 'the narration let through');
  await expectAttribute(panel.getByTestId('speech-badge'), 'data-kind', 'ready', 45_000);
});

it('the home page widget shows the month against the budget', async () => {
  const { monthToDate, budget } = await usage();
  await page.goto(`${stack.url}/admin`);
  const widget = page.getByTestId('speech-usage-widget');
  await widget.waitFor();
  await expectText(
    widget.getByTestId('speech-month-credits'),
    `${monthToDate.credits.toLocaleString('en-US')} of ${budget.monthlyCredits!.toLocaleString('en-US')} credits this month`
  );
  await expectText(widget, 'No failed narration needs attention.');
  await widget.screenshot({ path: path.join(ARTIFACTS, 'home-widget.png') });
  // Its link opens the usage page.
  await page.getByRole('link', { name: 'See the usage' }).click();
  await page.getByRole('heading', { name: 'Speech usage' }).waitFor();
});

it('in Arabic the usage page reads right to left', async () => {
  await page.evaluate(() => localStorage.setItem('strapi-admin-language', 'ar'));
  try {
    await page.goto(`${stack.url}${USAGE_PAGE}`);
    await page.getByRole('heading', { name: 'استهلاك الكلام' }).waitFor();
    const content = page.getByTestId('speech-usage');
    await expectAttribute(content, 'dir', 'rtl');
    await expectText(page.getByTestId('speech-usage-days'), 'الرصيد المُنفق يوميًا');
    // Time runs from the right: today's bar is left of the first day's, the value axis on the right.
    const svg = page.getByTestId('speech-usage-chart').getByRole('img');
    const layout = await svg.evaluate((element) => {
      const width = element.getBoundingClientRect().width;
      const bars = [...element.querySelectorAll('g > rect:first-child')].map((rect) => Number(rect.getAttribute('x')));
      const axisLabel = Number(element.querySelector('g > text')?.getAttribute('x'));
      return { width, first: bars[0], last: bars[bars.length - 1], axisLabel };
    });
    expect(layout.last).toBeLessThan(layout.first);
    expect(layout.axisLabel).toBeGreaterThan(layout.width / 2);
    await page.getByTestId('speech-usage-table-toggle').click();
    await page.getByTestId('speech-usage-month-sum').waitFor();
    // Strapi's admin does not flip the page for Arabic; the plugin's own layout must survive it.
    await page.evaluate(() => document.documentElement.setAttribute('dir', 'rtl'));
    await shot('usage-ar-rtl');
  } finally {
    await page.evaluate(() => localStorage.setItem('strapi-admin-language', 'en'));
  }
});

it('an admin without the settings permission has no widget, and no usage is asked for', async () => {
  const role = await stack.admin('POST', '/admin/roles', { name: 'Narrators', description: 'Narrate, no settings' });
  expect(role.status).toBe(201);
  const permissions = ['plugin::speech.narrate'].map((action) => ({ action, subject: null, properties: {}, conditions: [] }));
  expect((await stack.admin('PUT', `/admin/roles/${role.body.data.id}/permissions`, { permissions })).status).toBe(200);
  await createAdmin(stack, 'narrator@example.com', role.body.data.id);

  const context = await browser.newContext({ viewport: { width: 1680, height: 1000 }, locale: 'en-US' });
  const narrator = await context.newPage();
  const usageRequests: string[] = [];
  narrator.on('request', (request) => {
    if (new URL(request.url()).pathname.startsWith('/speech/usage')) usageRequests.push(request.url());
  });
  try {
    await narrator.goto(`${stack.url}/admin/auth/login`);
    await narrator.getByLabel('Email').fill('narrator@example.com');
    await narrator.getByLabel('Password', { exact: false }).first().fill('Passw0rd-For-Tests!');
    await narrator.getByRole('button', { name: 'Login' }).click();
    await narrator.getByText('Hello T').waitFor();
    // A widget with permissions shows as loading until its check is answered, then goes if refused.
    await narrator.getByText('Profile settings').waitFor();
    await waitFor(async () => (await narrator.getByText('Speech credits this month').count()) === 0, {
      timeoutMs: 15_000,
      what: 'the speech widget to be left out',
    });
    await narrator.waitForTimeout(2_000);
    await narrator.screenshot({ path: path.join(ARTIFACTS, 'home-without-settings.png') });
    expect(await narrator.getByText('Speech credits this month').count()).toBe(0);
    expect(await narrator.getByTestId('speech-usage-widget').count()).toBe(0);
    expect(usageRequests).toEqual([]);
  } finally {
    await context.close();
  }
});

it('an admin who may read the settings but not change them sees the widget and a budget card to read only', async () => {
  const role = await stack.admin('POST', '/admin/roles', { name: 'Speech readers', description: 'Read the speech settings' });
  expect(role.status).toBe(201);
  const permissions = ['plugin::speech.settings.read'].map((action) => ({ action, subject: null, properties: {}, conditions: [] }));
  expect((await stack.admin('PUT', `/admin/roles/${role.body.data.id}/permissions`, { permissions })).status).toBe(200);
  await createAdmin(stack, 'reader@example.com', role.body.data.id);

  const context = await browser.newContext({ viewport: { width: 1680, height: 1000 }, locale: 'en-US' });
  const reader = await context.newPage();
  try {
    await reader.goto(`${stack.url}/admin/auth/login`);
    await reader.getByLabel('Email').fill('reader@example.com');
    await reader.getByLabel('Password', { exact: false }).first().fill('Passw0rd-For-Tests!');
    await reader.getByRole('button', { name: 'Login' }).click();
    await reader.getByTestId('speech-usage-widget').waitFor();
    await reader.goto(`${stack.url}/admin/settings/speech`);
    const card = reader.getByTestId('speech-budget');
    await card.waitFor();
    expect(await card.getByTestId('speech-budget-credits').isDisabled()).toBe(true);
    expect(await card.getByTestId('speech-budget-time-zone').isDisabled()).toBe(true);
    expect(await reader.getByTestId('speech-save').isDisabled()).toBe(true);
  } finally {
    await context.close();
  }
});

it('produced no console errors and no failed plugin requests', () => {
  expect(problems).toEqual([]);
});
