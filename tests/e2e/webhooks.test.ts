/**
 * Subscribing a webhook to narration events, in a real headless Chromium against the playground:
 * the Webhooks card of Settings -> Speech ticks `narration.ready` through Strapi's own webhooks
 * API, Strapi's own Settings -> Webhooks form keeps that event when the webhook is edited and
 * saved there (it lists only Strapi's built-in events), an admin without Strapi's webhooks
 * permissions reads a sentence instead of the list, and the card in Arabic runs right to left.
 *
 * Needs the playground's admin bundle, built after the plugin (see admin.test.ts).
 * Screenshots go to test-artifacts/e2e/.
 */
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { createAdmin, type Stack } from '../integration/harness';
import { ARTIFACTS, closeAdminSession, expectAttribute, expectText, logIn, openAdminSession } from './browser';

jest.setTimeout(120_000);

/** Not called during the test (nothing is narrated); a public name, as Strapi requires in production. */
const FRONT_END_URL = 'https://front.example.com/api/revalidate';

let stack: Stack;
let browser: Browser;
let page: Page;
const problems: string[] = [];
let frontEndId = '';
let searchId = '';

async function webhook(id: string) {
  const { status, body } = await stack.admin('GET', `/admin/webhooks/${id}`);
  if (status !== 200) throw new Error(`webhook ${id}: ${status} ${JSON.stringify(body)}`);
  return body.data as { name: string; url: string; events: string[]; headers: Record<string, string>; isEnabled: boolean };
}

async function createWebhook(name: string, events: string[]) {
  const { status, body } = await stack.admin('POST', '/admin/webhooks', {
    name,
    url: FRONT_END_URL,
    headers: { 'x-token': 'abc' },
    events,
  });
  if (status !== 201) throw new Error(`create webhook: ${status} ${JSON.stringify(body)}`);
  return String(body.data.id);
}

async function openSpeechSettings() {
  await page.goto(`${stack.url}/admin/settings/speech`);
  const card = page.getByTestId('speech-webhooks');
  await card.waitFor();
  await card.scrollIntoViewIfNeeded();
  return card;
}

beforeAll(async () => {
  ({ stack, browser, page } = await openAdminSession('tests/e2e/webhooks.test.ts', problems));
  frontEndId = await createWebhook('Front end', ['entry.publish']);
  searchId = await createWebhook('Search index', ['entry.update', 'narration.failed']);
}, 150_000);

afterAll(() => closeAdminSession({ browser, stack }));

it('logs in', async () => {
  await logIn(page, stack.url);
});

it('the Webhooks card ticks narration.ready on a webhook, saved through Strapi with its other events', async () => {
  const card = await openSpeechSettings();
  const row = card.getByTestId(`speech-webhook-${frontEndId}`);
  await expectText(row, 'Front end');
  await expectText(row, FRONT_END_URL);
  const ready = row.getByRole('checkbox', { name: 'Narration ready to Front end' });
  const failed = row.getByRole('checkbox', { name: 'Narration failed to Front end' });
  expect(await ready.isChecked()).toBe(false);
  expect(await failed.isChecked()).toBe(false);
  // The other webhook shows what it is subscribed to already.
  const searchRow = card.getByTestId(`speech-webhook-${searchId}`);
  expect(await searchRow.getByRole('checkbox', { name: 'Narration failed to Search index' }).isChecked()).toBe(true);
  expect(await searchRow.getByRole('checkbox', { name: 'Narration ready to Search index' }).isChecked()).toBe(false);

  const saved = page.waitForResponse(
    (response) => new URL(response.url()).pathname === `/admin/webhooks/${frontEndId}` && response.request().method() === 'PUT'
  );
  await ready.click();
  expect((await saved).status()).toBe(200);
  await page.getByText('Webhook "Front end" saved.').waitFor();
  await expectAttribute(ready, 'data-state', 'checked');

  const stored = await webhook(frontEndId);
  expect(stored.events.sort()).toEqual(['entry.publish', 'narration.ready']);
  expect(stored).toMatchObject({ name: 'Front end', url: FRONT_END_URL, headers: { 'x-token': 'abc' }, isEnabled: true });
  // The other webhook was not touched.
  expect((await webhook(searchId)).events.sort()).toEqual(['entry.update', 'narration.failed']);
  await card.screenshot({ path: path.join(ARTIFACTS, 'settings-webhooks.png') });
});

it("Strapi's own Settings -> Webhooks form keeps narration.ready when the webhook is edited and saved there", async () => {
  await page.goto(`${stack.url}/admin/settings/webhooks/${frontEndId}`);
  const name = page.getByRole('textbox', { name: 'Name' });
  await name.waitFor();
  expect(await name.inputValue()).toBe('Front end');
  // Its events table has no row for narration events: only Strapi's entry and media events.
  expect(await page.getByRole('checkbox', { name: 'narration.ready' }).count()).toBe(0);
  await name.fill('Front end site');
  await page.getByRole('checkbox', { name: 'entry.update' }).click();
  const saved = page.waitForResponse(
    (response) => new URL(response.url()).pathname === `/admin/webhooks/${frontEndId}` && response.request().method() === 'PUT'
  );
  await page.getByRole('button', { name: 'Save' }).click();
  const answer = await saved;
  expect(answer.status()).toBe(200);
  expect(((await answer.request().postDataJSON()) as { events: string[] }).events).toContain('narration.ready');

  const stored = await webhook(frontEndId);
  expect(stored.name).toBe('Front end site');
  expect(stored.events.sort()).toEqual(['entry.publish', 'entry.update', 'narration.ready']);

  // And the card shows the webhook as Strapi saved it.
  const card = await openSpeechSettings();
  const row = card.getByTestId(`speech-webhook-${frontEndId}`);
  await expectText(row, 'Front end site');
  expect(await row.getByRole('checkbox', { name: 'Narration ready to Front end site' }).isChecked()).toBe(true);
});

it('unticking narration.ready removes only that event', async () => {
  const card = await openSpeechSettings();
  const ready = card.getByTestId(`speech-webhook-${frontEndId}`).getByRole('checkbox', { name: 'Narration ready to Front end site' });
  await ready.click();
  await page.getByText('Webhook "Front end site" saved.').first().waitFor();
  await expectAttribute(ready, 'data-state', 'unchecked');
  expect((await webhook(frontEndId)).events.sort()).toEqual(['entry.publish', 'entry.update']);
});

it('reads right to left in Arabic', async () => {
  await page.evaluate(() => localStorage.setItem('strapi-admin-language', 'ar'));
  const card = await openSpeechSettings();
  await expectText(card, 'خطافات الويب');
  await expectAttribute(card, 'dir', 'rtl');
  await expectText(card, 'القراءة الصوتية جاهزة');
  await card.screenshot({ path: path.join(ARTIFACTS, 'settings-webhooks-ar.png') });
  await page.evaluate(() => localStorage.setItem('strapi-admin-language', 'en'));
});

it("an admin without Strapi's webhooks permissions reads a sentence, and no webhook request is made", async () => {
  const role = await stack.admin('POST', '/admin/roles', { name: 'Speech settings only', description: 'Reads the speech settings' });
  expect(role.status).toBe(201);
  const permissions = ['plugin::speech.settings.read'].map((action) => ({ action, subject: null, properties: {}, conditions: [] }));
  expect((await stack.admin('PUT', `/admin/roles/${role.body.data.id}/permissions`, { permissions })).status).toBe(200);
  await createAdmin(stack, 'settings-reader@example.com', role.body.data.id);

  const context = await browser.newContext({ viewport: { width: 1680, height: 1000 }, locale: 'en-US' });
  const reader = await context.newPage();
  const webhookRequests: string[] = [];
  const errors: string[] = [];
  reader.on('pageerror', (error) => errors.push(error.message));
  reader.on('request', (request) => {
    if (new URL(request.url()).pathname.startsWith('/admin/webhooks')) webhookRequests.push(request.url());
  });
  try {
    await reader.goto(`${stack.url}/admin/auth/login`);
    await reader.getByLabel('Email').fill('settings-reader@example.com');
    await reader.getByLabel('Password', { exact: false }).first().fill('Passw0rd-For-Tests!');
    await reader.getByRole('button', { name: 'Login' }).click();
    await reader.waitForURL((url) => !url.pathname.includes('/auth/'));
    await reader.goto(`${stack.url}/admin/settings/speech`);
    const card = reader.getByTestId('speech-webhooks');
    await card.waitFor();
    await expectText(card, "You may not see this site's webhooks.");
    expect(await card.getByRole('checkbox').count()).toBe(0);
    expect(await card.getByTestId('speech-webhooks-create').count()).toBe(0);
    expect(webhookRequests).toEqual([]);
    expect(errors).toEqual([]);
  } finally {
    await context.close();
  }
});

it('produced no console errors and no failed plugin requests', () => {
  expect(problems).toEqual([]);
});
