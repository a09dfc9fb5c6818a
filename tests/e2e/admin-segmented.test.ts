/**
 * Segmented narration in the admin (issue 23), in a real headless Chromium against the playground
 * Strapi and the emulator: articles put in parts from Settings, the edit view panel's cost of the
 * changed parts only ("2 of 18 parts changed: 640 credits"), a narration's progress part by part
 * ("7 of 18 parts ready", "Narrated in 18 parts"), and the same screens in Arabic, right to left.
 *
 * A stack of its own (articles narrated in parts would change what admin.test.ts pays and sees),
 * built as admin.test.ts says. The steps run in order and build on each other. Screenshots go to
 * test-artifacts/e2e/.
 */
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { blocks, contentManager, waitFor, type Stack } from '../integration/harness';
import { ARTIFACTS, closeAdminSession, expectText, logIn, openAdminSession, selectForBulkAction } from './browser';

jest.setTimeout(120_000);

const ARTICLE = 'api::article.article';
const PART_SIZE = 300;
const TITLE = 'A long read in parts';
/** Paragraphs of about 130 characters: parts of at most PART_SIZE hold two of them. */
const PARAGRAPHS = Array.from(
  { length: 6 },
  (_, i) => `Paragraph ${i + 1} of a long read. It is long enough that two of them fill a part, so the article is narrated in several.`
);

let stack: Stack;
let browser: Browser;
let page: Page;
/** Console errors, page errors and failed plugin requests: the admin must produce none. */
const problems: string[] = [];
let documentId: string;

/** A screenshot once the page's transitions (a dialog fading in) are over; endless ones (a loader) are not waited for. */
async function shot(name: string) {
  await page.waitForFunction(() =>
    document
      .getAnimations()
      .every((animation) => animation.playState !== 'running' || animation.effect?.getComputedTiming().endTime === Infinity)
  );
  await page.screenshot({ path: path.join(ARTIFACTS, `${name}.png`) });
}

const estimateOf = async (id: string) =>
  (await stack.admin('POST', '/speech/narrations/estimate', { contentType: ARTICLE, documentId: id, locale: 'en' })).body as {
    characters: number;
    credits: number;
    unchanged: boolean;
    parts: { total: number; changed: number } | null;
  };

const narrationOf = async (id: string) =>
  ((await stack.admin('GET', `/speech/narrations/document/${id}?contentType=${ARTICLE}&locale=en`)).body?.data ?? [])[0] as
    | { status: string; parts: { total: number; ready: number } | null }
    | undefined;

const number = (value: number) => value.toLocaleString('en-US');

async function openEditView(id: string) {
  await page.goto(`${stack.url}/admin/content-manager/collection-types/${ARTICLE}/${id}?plugins[i18n][locale]=en`);
  await page.getByTestId('speech-panel').waitFor();
}

/** Selects the article in the list and opens the bulk action `label`. */
async function openBulkDialog(label: string) {
  await (await selectForBulkAction(page, page.locator('tr', { hasText: TITLE }), label)).click();
}

beforeAll(async () => {
  ({ stack, browser, page } = await openAdminSession('tests/e2e/admin-segmented.test.ts', problems, {
    // One part at a time, so the panel sees the parts arrive one by one.
    env: { SPEECH_MAX_IN_FLIGHT: '1' },
  }));
}, 150_000);

afterAll(() => closeAdminSession({ browser, stack }));

it('logs in', async () => {
  await logIn(page, stack.url);
});

it('Settings: articles put in parts with a part size of their own, checked before saving, and the server keeps them', async () => {
  await page.goto(`${stack.url}/admin/settings/speech`);
  await page.getByRole('heading', { name: 'Speech' }).waitFor();
  const global = page.getByTestId('speech-segment-characters');
  await global.scrollIntoViewIfNeeded();
  expect(await global.inputValue()).toBe('2,000');

  const card = page.getByTestId(`speech-type-${ARTICLE}`);
  await card.scrollIntoViewIfNeeded();
  const mode = card.getByRole('combobox', { name: 'Narration mode' });
  await expectText(mode, 'Whole article');
  await mode.click();
  await page.getByRole('option', { name: 'In parts' }).click();
  const size = card.getByTestId(`speech-type-segment-${ARTICLE}`);
  // Empty: the global size applies, and is shown.
  expect(await size.inputValue()).toBe('');
  expect(await size.getAttribute('placeholder')).toBe('2,000');

  // Under the contract's minimum: refused on the page, nothing sent.
  await size.fill('50');
  await page.getByTestId('speech-save').click();
  await expectText(card, 'Write a whole number of characters from 200 to 100,000.');
  await page.getByText('Some settings need your attention.').first().waitFor();
  expect((await stack.admin('GET', '/speech/settings')).body.settings.contentTypes[ARTICLE].narrationMode).toBe('whole');

  await size.fill(String(PART_SIZE));
  // The global size the page shows is not sent back: a runtime copy would pin it against the config file.
  const saving = page.waitForRequest((request) => request.method() === 'PUT' && request.url().endsWith('/speech/settings'));
  await page.getByTestId('speech-save').click();
  expect((await saving).postDataJSON()).not.toHaveProperty('segmentCharacters');
  await page.getByText('Settings saved.').waitFor();
  const { body } = await stack.admin('GET', '/speech/settings');
  expect(body.settings.contentTypes[ARTICLE]).toMatchObject({ narrationMode: 'segmented', segmentCharacters: PART_SIZE });
  expect(body.settings.segmentCharacters).toBe(2_000);
  // The other types keep their mode and take the global size.
  expect(body.settings.contentTypes['api::page.page']).toMatchObject({ narrationMode: 'whole' });
  expect(body.settings.contentTypes['api::page.page']).not.toHaveProperty('segmentCharacters');
  await card.scrollIntoViewIfNeeded();
  await shot('settings-segmented');
});

it('the panel prices a draft in parts: every part is new, and narrating pays for them all', async () => {
  ({ documentId } = await contentManager(stack, ARTICLE).create({ title: TITLE, summary: 'Read in parts.', body: blocks(...PARAGRAPHS) }));
  const estimate = await estimateOf(documentId);
  expect(estimate.parts).not.toBeNull();
  expect(estimate.parts!.total).toBeGreaterThan(1);
  expect(estimate.parts!.changed).toBe(estimate.parts!.total);

  await openEditView(documentId);
  const panel = page.getByTestId('speech-panel');
  await expectText(
    panel.getByTestId('speech-estimate-parts'),
    `${estimate.parts!.total} of ${estimate.parts!.total} parts changed: ${number(estimate.credits)} credits`
  );
  await expectText(panel.getByTestId('speech-estimate'), `The changed parts: ${number(estimate.characters)} characters × 1`);
  await panel.scrollIntoViewIfNeeded();
  await shot('edit-segmented-estimate');
});

it('published, the article is narrated part by part: the panel counts the parts ready, then says how many the narration has', async () => {
  const total = (await estimateOf(documentId)).parts!.total;
  const panel = page.getByTestId('speech-panel');
  await page.getByRole('button', { name: 'Publish' }).click();
  await page.getByText('Published document').first().waitFor();

  // Each reading of the line on the way; the panel polls while the narration is in progress.
  const seen = new Set<string>();
  await waitFor(
    async () => {
      const text = await panel
        .getByTestId('speech-parts')
        .innerText({ timeout: 500 })
        .catch(() => '');
      if (text) seen.add(text);
      if (/ of \d+ parts? ready$/.test(text) && !seen.has('shot')) {
        seen.add('shot');
        await shot('edit-segmented-progress');
      }
      return text === `Narrated in ${total} parts`;
    },
    { timeoutMs: 90_000, intervalMs: 200, what: `"Narrated in ${total} parts" (seen: ${[...seen].join(' | ')})` }
  );
  const progress = [...seen].filter((text) => / of \d+ parts? ready$/.test(text));
  expect(progress.length).toBeGreaterThan(0);
  for (const text of progress) expect(text).toMatch(new RegExp(`^\\d+ of ${total} parts ready$`));
  expect(await narrationOf(documentId)).toMatchObject({ status: 'completed', parts: { total, ready: total } });
  await waitFor(async () => (await panel.getByTestId('speech-badge').getAttribute('data-kind')) === 'ready', { what: 'the ready badge' });
  // Its one version so far, with what it cost.
  await expectText(panel.getByTestId('speech-version'), 'First narration');
  await expectText(panel.getByTestId('speech-version'), 'credits');
  await panel.scrollIntoViewIfNeeded();
  await shot('edit-segmented-stored');
});

it('after an edit of one paragraph, the panel prices only the part that changed', async () => {
  const edited = [...PARAGRAPHS];
  edited[PARAGRAPHS.length - 1] = 'The last paragraph now says something else, so its part changes and only that part would be paid for.';
  await contentManager(stack, ARTICLE).update(documentId, { body: blocks(...edited) }, 'en');
  const estimate = await estimateOf(documentId);
  expect(estimate.parts!.changed).toBeGreaterThanOrEqual(1);
  expect(estimate.parts!.changed).toBeLessThan(estimate.parts!.total);

  await openEditView(documentId);
  const panel = page.getByTestId('speech-panel');
  await expectText(
    panel.getByTestId('speech-estimate-parts'),
    `${estimate.parts!.changed} of ${estimate.parts!.total} parts changed: ${number(estimate.credits)} credits`
  );
  await panel.scrollIntoViewIfNeeded();
  await shot('edit-segmented-changed');

  // Regenerating pays for every part, not the changed ones the estimate counts: the dialog says what all of them cost.
  expect(estimate.regeneration.credits).toBeGreaterThan(estimate.credits);
  await panel.getByTestId('speech-regenerate').click();
  await expectText(
    page.getByTestId('speech-regenerate-cost'),
    `All ${estimate.parts!.total} parts are generated again and paid, unchanged ones included: ${number(estimate.regeneration.credits)} credits`
  );
  await shot('regenerate-segmented');
  await page.getByRole('button', { name: 'Cancel', exact: true }).click();
});

it('the bulk dialog lists what each entry would pay: its changed parts only', async () => {
  const estimate = await estimateOf(documentId);
  await page.goto(`${stack.url}/admin/content-manager/collection-types/${ARTICLE}`);
  await openBulkDialog('Narrate');
  const summary = page.getByTestId('speech-bulk-summary');
  await expectText(
    summary.getByTestId('speech-bulk-item'),
    `${TITLE} · ${estimate.parts!.changed} of ${estimate.parts!.total} parts changed · ${number(estimate.credits)} credits`
  );
  await expectText(summary.getByTestId('speech-bulk-parts-note'), 'An entry narrated in parts pays for its changed parts only.');
  await expectText(summary.getByTestId('speech-bulk-credits'), `Total: ${number(estimate.credits)} credits.`);
  await shot('bulk-segmented');
  await page.getByRole('button', { name: 'Cancel' }).click();
});

it('speaks Arabic, right to left: the mode and part size in Settings, the parts in the panel', async () => {
  await page.evaluate(() => localStorage.setItem('strapi-admin-language', 'ar'));
  await page.goto(`${stack.url}/admin/settings/speech`);
  await page.getByRole('heading', { name: 'الكلام' }).waitFor();
  // Strapi's admin does not flip the page for Arabic; the plugin's own layout must survive it.
  await page.evaluate(() => document.documentElement.setAttribute('dir', 'rtl'));
  const card = page.getByTestId(`speech-type-${ARTICLE}`);
  await card.scrollIntoViewIfNeeded();
  await expectText(card, 'طريقة السرد');
  await expectText(card.getByRole('combobox', { name: 'طريقة السرد' }), 'على أجزاء');
  await shot('settings-segmented-ar-rtl');

  await openEditView(documentId);
  await page.evaluate(() => document.documentElement.setAttribute('dir', 'rtl'));
  const panel = page.getByTestId('speech-panel');
  await expectText(panel.getByTestId('speech-estimate-parts'), 'الأجزاء المتغيّرة:');
  await expectText(panel.getByTestId('speech-versions'), 'النسخ');
  await expectText(panel.getByTestId('speech-version'), 'السرد الأول');
  await panel.scrollIntoViewIfNeeded();
  await shot('edit-segmented-ar-rtl');
  // The dialogs as Strapi shows them in Arabic, on an unflipped page (see the bulk dialog below).
  await page.evaluate(() => document.documentElement.setAttribute('dir', 'ltr'));
  await panel.getByTestId('speech-regenerate').click();
  await expectText(page.getByTestId('speech-regenerate-cost'), 'تُولَّد الأجزاء كلها');
  await shot('regenerate-segmented-ar');
  await page.getByRole('button', { name: 'إلغاء', exact: true }).click();

  // The list as Strapi shows it in Arabic, unflipped: flipped, Strapi's list view is twice as wide
  // as the window and its modal is drawn outside the screenshot. The dialog's text is the plugin's,
  // right to left either way.
  await page.goto(`${stack.url}/admin/content-manager/collection-types/${ARTICLE}`);
  await openBulkDialog('اسرد');
  await expectText(page.getByTestId('speech-bulk-item'), 'الأجزاء المتغيّرة:');
  await shot('bulk-segmented-ar-rtl');
  await page.evaluate(() => localStorage.setItem('strapi-admin-language', 'en'));
});

it('produced no console errors and no failed plugin requests', () => {
  expect(problems).toEqual([]);
});
