/**
 * Every article in its own voice, in a real headless Chromium against the playground (English and
 * Arabic locales) and the speech-service emulator: Settings -> Speech "Voices by language", and the
 * warning the edit-view panel and the bulk dialog give before anything is sent when the voice
 * speaks another language than the article, in English and in Arabic.
 *
 * Needs the playground's admin bundle, built after the plugin (see admin.test.ts).
 * Screenshots go to test-artifacts/e2e/.
 */
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { blocks, contentManager, waitFor, type Stack } from '../integration/harness';
import { ARTIFACTS, closeAdminSession, expectAttribute, expectText, logIn, openAdminSession, selectForBulkAction } from './browser';

jest.setTimeout(120_000);

const ARTICLE = 'api::article.article';
const ARABIC_TITLE = 'مقالة بصوت إنجليزي';
const LEXICON_TERM = 'عربية';
const LEXICON_SPOKEN = 'عَرَبِيَّة، لغة الضاد التي يتكلمها الملايين';

let stack: Stack;
let browser: Browser;
let page: Page;
const problems: string[] = [];
let arabicDocumentId = '';

async function shot(name: string) {
  await page.screenshot({ path: path.join(ARTIFACTS, `${name}.png`) });
}

async function openSettings() {
  await page.goto(`${stack.url}/admin/settings/speech`);
  await page.getByTestId('speech-locale-voices').waitFor();
}

async function openArabicArticle() {
  await page.goto(`${stack.url}/admin/content-manager/collection-types/${ARTICLE}/${arabicDocumentId}?plugins[i18n][locale]=ar`);
  await page.getByTestId('speech-estimate').waitFor();
}

/** The Arabic list with the Arabic article selected, and the bulk "Narrate" dialog open. */
async function openBulkDialog() {
  await page.goto(`${stack.url}/admin/content-manager/collection-types/${ARTICLE}?plugins[i18n][locale]=ar`);
  const row = page.locator('tr', { hasText: ARABIC_TITLE });
  // The row's narration status arrives after the list: selecting before it settles can be undone by a re-render.
  await row.getByTestId('speech-badge').waitFor();
  await (await selectForBulkAction(page, row, 'Narrate')).click();
}

beforeAll(async () => {
  ({ stack, browser, page } = await openAdminSession('tests/e2e/voices.test.ts', problems));
  const created = await contentManager(stack, ARTICLE).create(
    { title: ARABIC_TITLE, summary: 'ملخص قصير.', body: blocks('هذه مقالة عربية قصيرة.') },
    'ar'
  );
  arabicDocumentId = created.documentId;
}, 150_000);

afterAll(() => closeAdminSession({ browser, stack }));

it('logs in', async () => {
  await logIn(page, stack.url);
});

it('Settings -> Speech: one voice per site locale, offering that language, warning when the voice speaks another', async () => {
  await openSettings();
  const card = page.getByTestId('speech-locale-voices');
  await card.getByTestId('speech-locale-voice-en').waitFor();
  // Arabic articles have no voice of their own yet: the default (English) voice would read them.
  await expectText(card.getByTestId('speech-locale-voice-warning-ar'), 'This voice speaks en, not the language of ar articles.');
  expect(await card.getByTestId('speech-locale-voice-warning-en').count()).toBe(0);

  // The Arabic picker offers the Arabic voices (and "the default voice"), searchable.
  const arabic = page.getByRole('combobox', { name: 'Voice for ar' });
  await arabic.click();
  await arabic.fill('');
  const options = await page.getByRole('option').allInnerTexts();
  expect(options).toEqual(['The default voice', 'Karim (Arabic) · ar', 'Omar (Arabic) · ar', 'Layla (Arabic) · ar']);
  await arabic.fill('Lay');
  await page.getByRole('option', { name: 'Layla (Arabic) · ar' }).click();
  await waitFor(async () => (await card.getByTestId('speech-locale-voice-warning-ar').count()) === 0, { what: 'the warning to go' });
  await card.getByTestId('speech-locale-voice-ar-preview').waitFor();

  await page.getByTestId('speech-save').click();
  await page.getByText('Settings saved.').first().waitFor();
  expect((await stack.admin('GET', '/speech/settings')).body.settings.localeVoices).toEqual({ ar: 'ar-female-1' });

  await page.reload();
  await page.getByTestId('speech-locale-voices').waitFor();
  await waitFor(async () => (await page.getByRole('combobox', { name: 'Voice for ar' }).inputValue()) === 'Layla (Arabic) · ar', {
    what: 'the saved Arabic voice',
  });
  expect(await page.getByTestId('speech-locale-voice-warning-ar').count()).toBe(0);
  await page.getByTestId('speech-locale-voices').scrollIntoViewIfNeeded();
  await shot('settings-locale-voices');
});

it("the edit view says, before anything is sent, that the entry's voice speaks another language; publishing still works", async () => {
  // The editor gave this Arabic article an English voice of its own.
  const set = await stack.admin('PUT', '/speech/narrations/voice', {
    contentType: ARTICLE,
    documentId: arabicDocumentId,
    locale: 'ar',
    voiceId: 'en-male-1',
  });
  expect(set.status).toBe(200);
  await openArabicArticle();
  const panel = page.getByTestId('speech-panel');
  await expectText(
    panel.getByTestId('speech-voice-mismatch'),
    'James (English) speaks en, but this entry is in ar: it would be read in that voice anyway.'
  );
  await panel.scrollIntoViewIfNeeded();
  await shot('edit-voice-mismatch-en');

  await page.getByRole('button', { name: 'Publish' }).click();
  await page.getByText('Published document').first().waitFor();
  await waitFor(
    async () => {
      const { body } = await stack.admin('GET', `/speech/narrations/document/${arabicDocumentId}?contentType=${ARTICLE}&locale=ar`);
      return (body?.data ?? []).some((row: { voiceId: string }) => row.voiceId === 'en-male-1');
    },
    { timeoutMs: 30_000, what: 'the narration in the chosen voice' }
  );
});

it('the bulk dialog counts the entries that would be read in a voice of another language', async () => {
  const cm = contentManager(stack, ARTICLE);
  await cm.update(arabicDocumentId, { summary: 'ملخص جديد يغيّر النص.' }, 'ar');
  await openBulkDialog();
  const summary = page.getByTestId('speech-bulk-summary');
  await expectText(summary.getByTestId('speech-bulk-voice-mismatch'), '1 entry would be read in a voice of another language than its own.');
  await shot('bulk-voice-mismatch-en');
  await page.getByRole('button', { name: 'Cancel' }).click();
});

it('Settings -> Speech: a pronunciation rule is added, heard, saved, and still there after a reload', async () => {
  await openSettings();
  const lexicon = page.getByTestId('speech-lexicon');
  await lexicon.getByTestId('speech-lexicon-add').click();
  await lexicon.getByRole('textbox', { name: 'Written form of rule 1' }).fill(LEXICON_TERM);
  await lexicon.getByRole('textbox', { name: 'Spoken form of rule 1' }).fill(LEXICON_SPOKEN);
  await lexicon.getByRole('combobox', { name: 'Language of rule 1' }).click();
  await page.getByRole('option', { name: 'ar', exact: true }).click();
  await lexicon.getByRole('checkbox', { name: 'With or without diacritics' }).check();

  // Heard before it is saved: the spoken form goes to /lexicon/hear and its audio plays.
  const heard = page.waitForRequest((request) => new URL(request.url()).pathname === '/speech/lexicon/hear');
  await lexicon.getByTestId('speech-lexicon-hear-0').click();
  expect((await heard).postDataJSON()).toEqual({ rule: { spoken: LEXICON_SPOKEN, locale: 'ar' } });
  await expectAttribute(lexicon.getByTestId('speech-lexicon-hear-0'), 'data-state', 'playing');
  await lexicon.scrollIntoViewIfNeeded();
  await shot('settings-lexicon');

  await page.getByTestId('speech-save').click();
  await page.getByText('Settings saved.').first().waitFor();
  await page.reload();
  await page.getByTestId('speech-lexicon').waitFor();
  expect(await page.getByRole('textbox', { name: 'Written form of rule 1' }).inputValue()).toBe(LEXICON_TERM);
  expect(await page.getByRole('textbox', { name: 'Spoken form of rule 1' }).inputValue()).toBe(LEXICON_SPOKEN);
  expect((await stack.admin('GET', '/speech/settings')).body.settings.lexicon).toEqual([
    expect.objectContaining({ term: LEXICON_TERM, spoken: LEXICON_SPOKEN, locale: 'ar', ignoreDiacritics: true }),
  ]);
});

it('Settings -> Speech: skipped blocks, author field, site name and templates are saved and still there after a reload', async () => {
  await openSettings();
  const type = page.getByTestId(`speech-type-${ARTICLE}`);
  await type.getByRole('checkbox', { name: 'Code' }).check();
  await type.getByRole('checkbox', { name: 'Tables' }).check();
  await type.getByRole('combobox', { name: 'Author field' }).click();
  await page.getByRole('option', { name: 'summary', exact: true }).click();
  await page.getByTestId('speech-site-name').fill('Al Yawm');
  await page.getByTestId('speech-intro-*').fill('{title}, from {site}.');
  await page.getByTestId('speech-outro-ar').fill('انتهت مقالة {title} من {site}.');
  await page.getByTestId('speech-spoken-frame').scrollIntoViewIfNeeded();
  await shot('settings-frame');
  await page.getByTestId('speech-save').click();
  await page.getByText('Settings saved.').first().waitFor();

  const saved = (await stack.admin('GET', '/speech/settings')).body.settings;
  expect(saved.contentTypes[ARTICLE]).toMatchObject({ skipBlocks: ['code', 'table'], authorField: 'summary' });
  expect(saved).toMatchObject({
    siteName: 'Al Yawm',
    introTemplates: { '*': '{title}, from {site}.' },
    outroTemplates: { ar: 'انتهت مقالة {title} من {site}.' },
  });

  await page.reload();
  await page.getByTestId('speech-spoken-frame').waitFor();
  const reloaded = page.getByTestId(`speech-type-${ARTICLE}`);
  await expectAttribute(reloaded.getByRole('checkbox', { name: 'Code' }), 'aria-checked', 'true');
  await expectAttribute(reloaded.getByRole('checkbox', { name: 'Tables' }), 'aria-checked', 'true');
  await expectAttribute(reloaded.getByRole('checkbox', { name: 'Quotes' }), 'aria-checked', 'false');
  await expectText(reloaded.getByRole('combobox', { name: 'Author field' }), 'summary');
  expect(await page.getByTestId('speech-site-name').inputValue()).toBe('Al Yawm');
  expect(await page.getByTestId('speech-intro-*').inputValue()).toBe('{title}, from {site}.');
  expect(await page.getByTestId('speech-outro-ar').inputValue()).toBe('انتهت مقالة {title} من {site}.');
});

it('the bulk dialog lists what the lexicon would change, with the cost', async () => {
  await waitFor(
    async () => {
      const { body } = await stack.admin('GET', `/speech/narrations/document/${arabicDocumentId}?contentType=${ARTICLE}&locale=ar`);
      return (body?.data ?? []).some((row: { status: string }) => row.status === 'completed');
    },
    { timeoutMs: 45_000, what: 'the Arabic narration to complete' }
  );
  const expected = (await stack.admin('POST', '/speech/lexicon/affected', { contentType: ARTICLE, locale: 'ar', page: 1, pageSize: 25 }))
    .body;
  expect(expected.items.map((item: { documentId: string }) => item.documentId)).toEqual([arabicDocumentId]);

  await openBulkDialog();
  await page.getByTestId('speech-lexicon-affected-open').click();
  const affected = page.getByTestId('speech-lexicon-affected');
  await expectText(affected, ARABIC_TITLE);
  await expectText(affected.getByTestId('speech-lexicon-affected-total'), `1 entry to narrate again: ${expected.totalCredits} credits.`);
  await shot('bulk-lexicon-affected');
  await page.getByRole('button', { name: 'Cancel' }).click();
});

it('says the same in Arabic, right to left, with the admin in Arabic', async () => {
  await page.evaluate(() => localStorage.setItem('strapi-admin-language', 'ar'));
  await openArabicArticle();
  const warning = page.getByTestId('speech-voice-mismatch');
  await expectText(warning, 'الصوت James (English) يتكلم en، لكن هذا المُدخل بلغة ar: سيُقرأ بهذا الصوت مع ذلك.');
  expect(await warning.getAttribute('dir')).toBe('rtl');
  await page.getByTestId('speech-panel').scrollIntoViewIfNeeded();
  await shot('edit-voice-mismatch-ar');

  await openSettings();
  await page.getByRole('heading', { name: 'الأصوات حسب اللغة' }).waitFor();
  await page.getByTestId('speech-locale-voices').scrollIntoViewIfNeeded();
  await shot('settings-locale-voices-ar');
  await page.evaluate(() => localStorage.setItem('strapi-admin-language', 'en'));
});

it('produced no console errors and no failed plugin requests', () => {
  expect(problems).toEqual([]);
});
