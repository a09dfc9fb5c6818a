/**
 * The queue page (Settings -> Speech queue) in a real headless Chromium against the playground
 * Strapi and the speech-service emulator: after a bulk narrate with two failures injected by the
 * emulator, its counts match its tables, the failures are listed with their reasons, "retry" shows
 * the cost and resubmits exactly those two, and the page says when they are narrated. An editor
 * limited to Arabic sees and acts on Arabic only; the routes refuse callers without the
 * permissions and malformed selections. "Narrate the archive" shows its cost first, then its progress
 * until done. In Arabic, the page reads right to left.
 *
 * One Strapi boot for the whole file; the steps run in order and build on each other.
 * Screenshots go to test-artifacts/e2e/.
 */
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import type { QueueEntriesResponse, QueueSummaryResponse } from '../../shared/contracts/queue';
import { blocks, contentManager, createAdmin, waitFor, type Stack } from '../integration/harness';
import { ARTIFACTS, closeAdminSession, expectAttribute, expectText, logIn, openAdminSession } from './browser';

jest.setTimeout(120_000);

const ARTICLE = 'api::article.article';
const QUEUE_PAGE = '/admin/settings/speech-queue';

let stack: Stack;
let browser: Browser;
let page: Page;
const problems: string[] = [];
/** The four articles: two narrated, two failing (one in each locale). */
const articles: Record<'silentEn' | 'failingAr' | 'fineEn' | 'fineAr', { documentId: string; articleId: string; title: string }> =
  {} as never;

/** A dialog's opening animation is over (its screenshot shows it whole). */
const settledDialog = () =>
  page.waitForFunction(() => {
    const dialog = document.querySelector('[role="alertdialog"], [role="dialog"]');
    return dialog !== null && dialog.getAnimations().every((animation) => animation.playState !== 'running');
  });

async function shot(name: string) {
  await page.screenshot({ path: path.join(ARTIFACTS, `${name}.png`), fullPage: true });
}

const summary = async (call = stack.admin) => (await call('GET', '/speech/queue')).body as QueueSummaryResponse;
const failedEntries = async (call = stack.admin) => (await call('GET', '/speech/queue/entries?list=failed')).body as QueueEntriesResponse;

async function processTextRequests(): Promise<Array<{ body: { postData?: { articleId?: string } } }>> {
  return (await stack.control<any>('GET', '/requests?path=/process-text')).requests;
}

beforeAll(async () => {
  ({ stack, browser, page } = await openAdminSession('tests/e2e/queue.test.ts', problems, {
    // One attempt per narration, so an injected failure fails the article at once.
    env: { SPEECH_MAX_ATTEMPTS: '1' },
  }));
}, 520_000);

afterAll(() => closeAdminSession({ browser, stack }));

it('a bulk narrate of four articles, two of them failing at the service, leaves two failures', async () => {
  // Narrated by hand only, so that the bulk action is what sends them.
  const settings = (await stack.admin('GET', '/speech/settings')).body.settings;
  const type = settings.contentTypes[ARTICLE];
  expect((await stack.admin('PUT', '/speech/settings', { contentTypes: { [ARTICLE]: { ...type, trigger: 'off' } } })).status).toBe(200);
  const cm = contentManager(stack, ARTICLE);
  const make = async (title: string, locale: 'en' | 'ar', text: string) => {
    const { documentId } = await cm.create({ title, summary: `${title}.`, body: blocks(text) }, locale);
    await cm.publish(documentId, locale);
    return { documentId, articleId: `${documentId}-${locale}`, title };
  };
  articles.silentEn = await make('Silent at the service', 'en', 'The service gives no audio for this one.');
  articles.fineEn = await make('Narrated fine', 'en', 'This one is narrated without trouble.');
  articles.failingAr = await make('مقال يفشل', 'ar', 'تفشل الخدمة في توليد هذا المقال.');
  articles.fineAr = await make('مقال سليم', 'ar', 'هذا المقال يُسرد بلا مشكلة.');
  await stack.control('POST', '/inject', { kind: 'noAudio', articleId: articles.silentEn.articleId });
  await stack.control('POST', '/inject', { kind: 'syncProcessingError', articleId: articles.failingAr.articleId });

  for (const locale of ['en', 'ar'] as const) {
    const documentIds = Object.values(articles)
      .filter((article) => article.articleId.endsWith(`-${locale}`))
      .map((article) => article.documentId);
    const answer = await stack.admin('POST', '/speech/narrations/narrate-many', { contentType: ARTICLE, documentIds, locale });
    expect(answer.status).toBe(200);
    expect(answer.body.queued).toBe(2);
  }
  await waitFor(
    async () => {
      const { counts } = await summary();
      return counts.failed === 2 && counts.queued + counts.submitting + counts.awaitingService + counts.storing === 0;
    },
    { timeoutMs: 60_000, what: 'two failures and an empty queue' }
  );
  const failed = await failedEntries();
  expect(failed.data.map((entry) => entry.articleId).sort()).toEqual([articles.silentEn.articleId, articles.failingAr.articleId].sort());
  expect(failed.data.find((entry) => entry.articleId === articles.silentEn.articleId)?.lastErrorCode).toBe('NO_AUDIO');
});

it('shows counts that match its tables, and the failures with their reasons in plain words', async () => {
  await logIn(page, stack.url);
  await page.goto(`${stack.url}${QUEUE_PAGE}`);
  await page.getByRole('heading', { name: 'Speech queue' }).waitFor();
  const failedTile = page.getByTestId('speech-queue-count-failed').getByTestId('speech-queue-count');
  await expectText(failedTile, '2');
  const rows = page.getByTestId('speech-queue-failed').getByTestId('speech-queue-row');
  await waitFor(async () => (await rows.count()) === 2, { timeoutMs: 20_000, what: 'two failed rows' });
  expect(Number(await failedTile.innerText())).toBe(await rows.count());
  // The table by type and locale adds up to the same figure: one failure in each locale.
  const groups = page.getByTestId('speech-queue-groups');
  await expectText(groups, 'ar');
  const groupRows = await groups.locator('tbody tr').allInnerTexts();
  expect(groupRows).toHaveLength(2);
  const silent = page.locator(`[data-article="${articles.silentEn.articleId}"]`);
  await expectText(silent.getByTestId('speech-queue-reason'), 'The speech service produced no audio for this article.');
  const failing = page.locator(`[data-article="${articles.failingAr.articleId}"]`);
  await expectText(failing.getByTestId('speech-queue-reason'), 'The speech service failed while generating the audio.');
  await expectText(page.getByTestId('speech-queue-waiting'), 'Nothing is in the queue.');
  // The reason filter lists each reason with its count, and narrows the table to it.
  await page.getByRole('combobox', { name: 'Every reason' }).click();
  await page.getByRole('option', { name: /no audio for this article\. \(1\)/ }).click();
  await waitFor(async () => (await rows.count()) === 1, { timeoutMs: 20_000, what: 'one row for the reason' });
  await expectText(rows.first(), articles.silentEn.title);
  await page.getByRole('combobox', { name: 'Every reason' }).click();
  await page.getByRole('option', { name: 'Every reason' }).click();
  await waitFor(async () => (await rows.count()) === 2, { timeoutMs: 20_000, what: 'both rows again' });
  await shot('queue-en');
});

it('retry shows the cost first, resubmits exactly the two failures, and the page says when they are narrated', async () => {
  const before = (await processTextRequests()).length;
  // Slow enough that the page lists them while they are generated.
  await stack.control('PUT', '/config', { generationDelayMs: 6000 });
  try {
    const rows = page.getByTestId('speech-queue-failed').getByTestId('speech-queue-row');
    for (let index = 0; index < 2; index += 1) await rows.nth(index).getByRole('checkbox').check();
    await page.getByTestId('speech-queue-retry-selected').click();
    const dialog = page.getByTestId('speech-retry-dialog');
    const expected = (await failedEntries()).data.reduce((sum, entry) => sum + (entry.credits ?? 0), 0);
    await expectText(dialog.getByTestId('speech-retry-cost'), `2 narrations, about ${expected.toLocaleString('en-US')} credits.`);
    await expectText(dialog.getByTestId('speech-retry-budget'), 'no monthly budget');
    // Nothing is sent before the confirmation.
    expect((await processTextRequests()).length).toBe(before);
    await page.getByTestId('speech-retry-confirm').click();
    await expectText(page.locator('body'), '2 narrations queued again.');

    await page.getByTestId('speech-queue-waiting-list').waitFor({ timeout: 20_000 });
    await expectText(page.locator('body'), `“${articles.silentEn.title}” is narrated.`, 45_000);
    await expectText(page.locator('body'), `“${articles.failingAr.title}” is narrated.`, 45_000);
  } finally {
    await stack.control('PUT', '/config', { generationDelayMs: 0 });
  }
  const sent = (await processTextRequests()).slice(before).map((request) => request.body.postData?.articleId);
  expect([...new Set(sent)].sort()).toEqual([articles.silentEn.articleId, articles.failingAr.articleId].sort());
  await expectText(page.getByTestId('speech-queue-count-failed').getByTestId('speech-queue-count'), '0');
  expect((await summary()).counts.failed).toBe(0);
});

it('an editor limited to Arabic sees and acts on Arabic narrations only', async () => {
  // Two failures again, one in each locale.
  await stack.control('POST', '/inject', { kind: 'noAudio', articleId: articles.fineEn.articleId });
  await stack.control('POST', '/inject', { kind: 'noAudio', articleId: articles.fineAr.articleId });
  for (const article of [articles.fineEn, articles.fineAr]) {
    const locale = article.articleId.endsWith('-ar') ? 'ar' : 'en';
    expect(
      (await stack.admin('POST', '/speech/narrations/regenerate', { contentType: ARTICLE, documentId: article.documentId, locale })).status
    ).toBe(200);
  }
  await waitFor(async () => (await summary()).counts.failed === 2, { timeoutMs: 60_000, what: 'two new failures' });

  const role = await stack.admin('POST', '/admin/roles', { name: 'Arabic queue desk', description: 'Arabic only' });
  const permissions = [
    ...['read', 'publish'].map((action) => ({
      action: `plugin::content-manager.explorer.${action}`,
      subject: ARTICLE,
      properties: action === 'publish' ? { locales: ['ar'] } : { fields: ['title', 'summary', 'body'], locales: ['ar'] },
      conditions: [],
    })),
    ...['plugin::speech.settings.read', 'plugin::speech.narrate'].map((action) => ({
      action,
      subject: null,
      properties: {},
      conditions: [],
    })),
  ];
  expect((await stack.admin('PUT', `/admin/roles/${role.body.data.id}/permissions`, { permissions })).status).toBe(200);
  const desk = await createAdmin(stack, 'queue-desk@example.com', role.body.data.id);

  const seen = await summary(desk.call);
  expect(seen.counts.failed).toBe(1);
  expect(seen.groups.map((group) => group.locale)).toEqual(['ar']);
  expect((await failedEntries(desk.call)).data.map((entry) => entry.articleId)).toEqual([articles.fineAr.articleId]);
  // The English failure is refused, not retried; nothing is sent for it.
  const before = (await processTextRequests()).length;
  const refused = await desk.call('POST', '/speech/queue/retry', { articleIds: [articles.fineEn.articleId] });
  expect(refused.status).toBe(200);
  expect(refused.body).toMatchObject({ retried: 0, refused: 1 });
  const all = await desk.call('POST', '/speech/queue/retry/estimate', { all: true });
  expect(all.body).toMatchObject({ count: 1 });
  expect((await processTextRequests()).length).toBe(before);

  const context = await browser.newContext({ viewport: { width: 1680, height: 1000 }, locale: 'en-US' });
  const deskPage = await context.newPage();
  try {
    await deskPage.goto(`${stack.url}/admin/auth/login`);
    await deskPage.getByLabel('Email').fill('queue-desk@example.com');
    await deskPage.getByLabel('Password', { exact: false }).first().fill('Passw0rd-For-Tests!');
    await deskPage.getByRole('button', { name: 'Login' }).click();
    await deskPage.getByText('Hello T').waitFor();
    await deskPage.goto(`${stack.url}${QUEUE_PAGE}`);
    await deskPage.getByRole('heading', { name: 'Speech queue' }).waitFor();
    await expectText(deskPage.getByTestId('speech-queue-count-failed').getByTestId('speech-queue-count'), '1');
    const rows = deskPage.getByTestId('speech-queue-failed').getByTestId('speech-queue-row');
    await waitFor(async () => (await rows.count()) === 1, { timeoutMs: 20_000, what: 'the Arabic failure only' });
    expect(await rows.first().getAttribute('data-article')).toBe(articles.fineAr.articleId);
    await deskPage.screenshot({ path: path.join(ARTIFACTS, 'queue-arabic-desk.png'), fullPage: true });
  } finally {
    await context.close();
  }
  // The admin still sees both.
  expect((await summary()).counts.failed).toBe(2);
});

it('refuses callers without the permissions and malformed selections, changing nothing', async () => {
  const narrators = await stack.admin('POST', '/admin/roles', { name: 'Queue narrators', description: 'Narrate, no settings' });
  const readers = await stack.admin('POST', '/admin/roles', { name: 'Queue readers', description: 'Settings, no narrate' });
  const grant = (actions: string[]) => actions.map((action) => ({ action, subject: null, properties: {}, conditions: [] }));
  await stack.admin('PUT', `/admin/roles/${narrators.body.data.id}/permissions`, { permissions: grant(['plugin::speech.narrate']) });
  await stack.admin('PUT', `/admin/roles/${readers.body.data.id}/permissions`, { permissions: grant(['plugin::speech.settings.read']) });
  const narrator = await createAdmin(stack, 'queue-narrator@example.com', narrators.body.data.id);
  const reader = await createAdmin(stack, 'queue-reader@example.com', readers.body.data.id);
  const before = (await processTextRequests()).length;

  expect((await narrator.call('GET', '/speech/queue')).status).toBe(403);
  expect((await narrator.call('GET', '/speech/queue/entries?list=failed')).status).toBe(403);
  expect((await reader.call('GET', '/speech/queue')).status).toBe(200);
  expect((await reader.call('POST', '/speech/queue/retry/estimate', { all: true })).status).toBe(403);
  expect((await reader.call('POST', '/speech/queue/retry', { all: true })).status).toBe(403);
  expect((await reader.call('POST', '/speech/queue/cancel', { articleIds: [articles.fineEn.articleId] })).status).toBe(403);
  for (const body of [
    {},
    { articleIds: [] },
    { all: false },
    { articleIds: ['x'], all: true },
    { all: true, filter: { reason: 'drop table' } },
  ]) {
    const answer = await stack.admin('POST', '/speech/queue/retry', body);
    expect(answer.status).toBe(400);
    expect(answer.body.error.message).toBeTruthy();
  }
  expect((await stack.admin('GET', '/speech/queue/entries?list=everything')).status).toBe(400);
  expect((await stack.admin('GET', '/speech/queue/entries?list=failed&pageSize=1000')).status).toBe(400);
  expect((await processTextRequests()).length).toBe(before);
  expect((await summary()).counts.failed).toBe(2);
});

it('"retry all failed" takes every failure the filter matches', async () => {
  const before = (await processTextRequests()).length;
  const answer = await stack.admin('POST', '/speech/queue/retry', { all: true, filter: { locale: 'en' } });
  expect(answer.body).toMatchObject({ retried: 1, refused: 0, left: 0 });
  // Narrated, not only queued: the request is in the emulator's log once the queue is empty again.
  await waitFor(
    async () => {
      const { counts } = await summary();
      return counts.failed === 1 && counts.queued + counts.submitting + counts.awaitingService + counts.storing === 0;
    },
    { timeoutMs: 45_000, what: 'the English failure narrated' }
  );
  const sent = (await processTextRequests()).slice(before).map((request) => request.body.postData?.articleId);
  expect([...new Set(sent)]).toEqual([articles.fineEn.articleId]);
});

it('narrates the archive from the page: the cost first, then its progress until done', async () => {
  // Published while articles narrate nothing on their own (the first step set it): the archive.
  const cm = contentManager(stack, ARTICLE);
  for (const n of [1, 2, 3]) {
    const { documentId } = await cm.create(
      { title: `Archived ${n}`, summary: `Archived ${n}.`, body: blocks(`From the archive, ${n}.`) },
      'en'
    );
    await cm.publish(documentId, 'en');
  }
  const before = (await processTextRequests()).length;
  const expected = (await stack.admin('POST', '/speech/backfills/estimate', { contentType: ARTICLE, locale: 'en' })).body;
  expect(expected.documents).toBe(3);

  await page.goto(`${stack.url}${QUEUE_PAGE}`);
  await expectText(page.getByTestId('speech-backfills'), 'No archive is being narrated.');
  await page.getByTestId('speech-backfill-new').click();
  const dialog = page.getByTestId('speech-backfill-dialog');
  await expectText(dialog.getByTestId('speech-backfill-cost'), `3 entries, about ${expected.credits.toLocaleString('en-US')} credits.`);
  await expectText(dialog.getByTestId('speech-backfill-per-day'), 'within a day');
  await settledDialog();
  await dialog.screenshot({ path: path.join(ARTIFACTS, 'queue-backfill-dialog.png') });
  // Nothing is sent before the confirmation.
  expect((await processTextRequests()).length).toBe(before);
  await page.getByTestId('speech-backfill-start').click();
  await expectText(page.locator('body'), 'The archive is being narrated, newest first.');
  const row = page.getByTestId('speech-backfill-row');
  await expectAttribute(row, 'data-status', 'done', 60_000);
  await expectText(row, '3 of 3 (\u2068100%\u2069)');
  const sent = (await processTextRequests()).slice(before).map((request) => request.body.postData?.articleId);
  expect(sent).toHaveLength(3);
  await page.getByTestId('speech-backfills').screenshot({ path: path.join(ARTIFACTS, 'queue-backfill-done.png') });
});

it('in Arabic the queue page reads right to left', async () => {
  await page.evaluate(() => localStorage.setItem('strapi-admin-language', 'ar'));
  try {
    await page.goto(`${stack.url}${QUEUE_PAGE}`);
    await page.getByRole('heading', { name: 'قائمة انتظار الكلام' }).waitFor();
    await expectAttribute(page.getByTestId('speech-queue'), 'dir', 'rtl');
    await expectText(page.getByTestId('speech-queue-counts'), 'قائمة الانتظار الآن');
    await expectText(page.getByTestId('speech-queue-failures'), 'السرديات الفاشلة');
    await expectText(page.getByTestId('speech-backfills'), 'سرد الأرشيف');
    await expectText(page.getByTestId('speech-backfill-row'), 'انتهى');
    await page.getByTestId('speech-backfills').screenshot({ path: path.join(ARTIFACTS, 'queue-backfill-ar.png') });
    await page.getByTestId('speech-backfill-new').click();
    await expectAttribute(page.getByTestId('speech-backfill-dialog'), 'dir', 'rtl');
    await expectText(page.getByTestId('speech-backfill-cost'), 'لا شيء للسرد');
    await settledDialog();
    await page.getByTestId('speech-backfill-dialog').screenshot({ path: path.join(ARTIFACTS, 'queue-backfill-dialog-ar.png') });
    await page.keyboard.press('Escape');
    // Strapi's admin does not flip the page for Arabic; the plugin's own layout must survive it.
    await page.evaluate(() => document.documentElement.setAttribute('dir', 'rtl'));
    await shot('queue-ar-rtl');
  } finally {
    await page.evaluate(() => localStorage.setItem('strapi-admin-language', 'en'));
  }
  expect(problems).toEqual([]);
});
