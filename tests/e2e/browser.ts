/**
 * Shared by the browser tests: a headless Chromium (Debian `chromium` driven by playwright-core,
 * never a downloaded browser), the admin login, and waiting helpers.
 */
import fs from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type Locator, type Page, type Response } from 'playwright-core';
import { startStack, waitFor, type Stack } from '../integration/harness';

export const ROOT = path.resolve(__dirname, '..', '..');
export const ARTIFACTS = path.join(ROOT, 'test-artifacts', 'e2e');
export const ADMIN_BUNDLE = path.join(ROOT, 'playground', 'dist', 'build', 'index.html');
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
/** The first admin the harness registers (tests/integration/harness.ts). */
export const EMAIL = 'editor@example.com';
export const PASSWORD = 'Editor-Passw0rd!';

/** Chromium's flags in these tests: no sandbox (a container), no GPU, no traffic of its own (updates, sync, QUIC). */
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

/** The admin bundle and Chromium must exist; the screenshot folder is created. */
function checkBrowserPrerequisites(testFile: string) {
  if (!fs.existsSync(ADMIN_BUNDLE)) {
    throw new Error(`No admin bundle at ${ADMIN_BUNDLE}: build the plugin, then the playground admin (see the top of ${testFile}).`);
  }
  if (!fs.existsSync(CHROMIUM)) throw new Error(`No Chromium at ${CHROMIUM}: apt-get install -y chromium`);
  fs.mkdirSync(ARTIFACTS, { recursive: true });
}

/**
 * Launches Chromium with one page. Console errors, page errors and failed plugin requests are
 * pushed to `problems` (the admin must produce none); `onResponse` sees every response.
 * With `proxyUrl`, every request goes through that HTTP proxy (see throttling-proxy.ts).
 */
/** Chromium's environment: libfaketime, which moves the clock of Strapi's processes, keeps Chromium's pages from loading. */
function browserEnv(): Record<string, string> {
  const { LD_PRELOAD: _preload, FAKETIME: _faketime, ...env } = process.env;
  return Object.fromEntries(Object.entries(env).filter((entry): entry is [string, string] => entry[1] !== undefined));
}

async function launchAdminBrowser(
  problems: string[],
  onResponse?: (response: Response) => void,
  options: { proxyUrl?: string } = {}
): Promise<{ browser: Browser; page: Page }> {
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    // Playwright also sends loopback traffic through the proxy (Chromium would bypass it).
    ...(options.proxyUrl ? { proxy: { server: options.proxyUrl } } : {}),
    args: CHROMIUM_ARGS,
    env: browserEnv(),
  });
  const context = await browser.newContext({ viewport: { width: 1680, height: 1000 }, locale: 'en-US' });
  // Under a moved clock (npm run calendar-boundaries) the page reads the same time as Strapi.
  if (process.env.FAKETIME) await context.clock.setSystemTime(Date.now());
  const page = await context.newPage();
  page.setDefaultTimeout(20_000);
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() !== 'error') return;
    const text = message.text();
    // Resource failures are judged by URL below: Strapi itself asks for files and routes this
    // offline playground does not have (favicon, release feed, AI features, preview).
    if (text.startsWith('Failed to load resource')) return;
    // Strapi's own Arabic catalogue is incomplete, and has broken messages (its list view's
    // "{number, plural, one {# entry} آخر {# entries}} selected" translated the keyword `other`);
    // only the plugin's messages must all exist and format.
    const missing = /MISSING_TRANSLATION\] Missing message: "([^"]+)"/.exec(text);
    if (missing && !missing[1].startsWith('speech.')) return;
    const broken = /FORMAT_ERROR\] Error formatting message: "([^"]+)"/.exec(text);
    if (broken && !broken[1].startsWith('speech.')) return;
    problems.push(`console error: ${text.split('\n')[0]}`);
  });
  page.on('response', (response) => {
    const url = new URL(response.url());
    if (url.pathname.startsWith('/speech/') && response.status() >= 400)
      problems.push(`HTTP ${response.status()} ${response.request().method()} ${url.pathname}`);
    onResponse?.(response);
  });
  return { browser, page };
}

/**
 * One test file's stack, serving the admin panel (with `env` besides), and a browser on it (see
 * launchAdminBrowser for `problems`, `onResponse` and `proxyUrl`). Close it with closeAdminSession.
 */
export async function openAdminSession(
  testFile: string,
  problems: string[],
  options: { env?: Record<string, string>; onResponse?: (response: Response) => void; proxyUrl?: string } = {}
): Promise<{ stack: Stack; browser: Browser; page: Page }> {
  checkBrowserPrerequisites(testFile);
  const stack = await startStack({ env: { SERVE_ADMIN_PANEL: 'true', ...options.env } });
  try {
    return { stack, ...(await launchAdminBrowser(problems, options.onResponse, { proxyUrl: options.proxyUrl })) };
  } catch (error) {
    await stack.stop();
    throw error;
  }
}

/** Closes the browser, then stops the stack; either is missing when the session did not open. */
export async function closeAdminSession({ browser, stack }: { browser?: Browser; stack?: Stack }) {
  await browser?.close();
  await stack?.stop();
}

/** Logs in through the login form and dismisses the guided tour and the banner. */
export async function logIn(page: Page, url: string) {
  await page.goto(`${url}/admin/auth/login`);
  await page.getByLabel('Email').fill(EMAIL);
  await page.getByLabel('Password', { exact: false }).first().fill(PASSWORD);
  await page.getByRole('button', { name: 'Login' }).click();
  await page.getByText('Hello Test').waitFor();
  // The home page offers a guided tour (closing it asks for a confirmation) and shows a banner.
  const closeTour = page.getByRole('button', { name: 'Close guided tour' });
  await closeTour.waitFor();
  await closeTour.click();
  await page.getByRole('button', { name: 'Confirm' }).click();
  await closeTour.waitFor({ state: 'detached' });
  const closeBanner = page.getByRole('button', { name: 'Close the banner.' });
  if (await closeBanner.isVisible().catch(() => false)) await closeBanner.click();
}

/**
 * Selects `row` in a Content Manager list and waits for the bulk action button `label`.
 *
 * Strapi works its bulk actions out in an idle callback after a selection changes. Headless
 * Chromium on a loaded machine can hold idle callbacks until it renders its next frame, and a page
 * nobody looks at renders none: the button then never comes, though the selection is made (seen
 * in CI; taking a screenshot, which renders a frame, brought it at once). So while waiting, a
 * frame is rendered now and then, as a screen would. The row is selected before the button is
 * looked for, and again if a re-render of the list dropped the selection.
 */
export async function selectForBulkAction(page: Page, row: Locator, label: string, timeoutMs = 30_000): Promise<Locator> {
  const action = page.getByRole('button', { name: label, exact: true });
  const checkbox = row.getByRole('checkbox');
  let lastFrame = Date.now();
  await waitFor(
    async () => {
      // The row first: with another row already selected the button may be there before this one is.
      if (!(await checkbox.isChecked())) await checkbox.check();
      if (await action.isVisible()) return true;
      if (Date.now() - lastFrame >= 1_000) {
        await page.screenshot();
        lastFrame = Date.now();
      }
      return false;
    },
    { timeoutMs, intervalMs: 200, what: `the bulk action ${label}` }
  ).catch(async (error) => {
    await page.screenshot({ path: path.join(ARTIFACTS, `bulk-${label.toLowerCase()}-failure.png`) }).catch(() => undefined);
    const buttons = await page
      .getByRole('button')
      .allInnerTexts()
      .catch(() => []);
    const checked = await checkbox.isChecked().catch(() => 'unknown');
    throw new Error(`${(error as Error).message}; row checked: ${checked}; buttons: ${JSON.stringify(buttons.filter(Boolean))}`);
  });
  return action;
}

export async function expectText(locator: Locator, text: string, timeoutMs = 20_000) {
  await waitFor(async () => (await locator.innerText({ timeout: 1_000 }).catch(() => '')).includes(text), {
    timeoutMs,
    intervalMs: 100,
    what: `"${text}"`,
  }).catch(async (error) => {
    throw new Error(`${(error as Error).message}; found "${await locator.innerText({ timeout: 1_000 }).catch(() => '(nothing)')}"`);
  });
}

export async function expectAttribute(locator: Locator, name: string, value: string, timeoutMs = 20_000) {
  await waitFor(async () => (await locator.getAttribute(name, { timeout: 1_000 }).catch(() => null)) === value, {
    timeoutMs,
    intervalMs: 100,
    what: `${name}=${value}`,
  });
}
