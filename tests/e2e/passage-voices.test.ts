/**
 * Passage voices in a real headless Chromium against the playground and the emulator: the edit
 * view's panel lists the passages of an Arabic article with an English paragraph, their languages
 * and voices, and an editor chooses another voice for one; Settings -> Speech turns passage voices
 * on for a type; in English and in Arabic.
 *
 * Needs the playground's admin bundle, built after the plugin (see admin.test.ts).
 * Screenshots go to test-artifacts/e2e/.
 */
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { blocks, contentManager, waitFor, type Stack } from '../integration/harness';
import { ARTIFACTS, closeAdminSession, expectText, logIn, openAdminSession } from './browser';

jest.setTimeout(120_000);

const ARTICLE = 'api::article.article';
const PAGE = 'api::page.page';
const ARABIC = 'قال الوزير في مؤتمر صحفي إن الحكومة ستعمل على تحسين الخدمات العامة خلال العام المقبل.';
const ENGLISH = 'The minister said the new budget focuses on education, health and the public services people use every day.';
const CLOSING = 'وأضاف أن الميزانية الجديدة تركز على التعليم والصحة وأن العمل سيبدأ في الشهر القادم.';

let stack: Stack;
let browser: Browser;
let page: Page;
let documentId: string;
const problems: string[] = [];

async function shot(name: string) {
  await page.screenshot({ path: path.join(ARTIFACTS, `${name}.png`) });
}

beforeAll(async () => {
  ({ stack, browser, page } = await openAdminSession('tests/e2e/passage-voices.test.ts', problems, {
    env: {
      SPEECH_DEFAULT_VOICE: 'en-male-1',
      SPEECH_LOCALE_VOICES: 'ar=ar-male-1,en=en-female-1',
      SPEECH_CONTENT_TYPES: JSON.stringify({
        [ARTICLE]: { titleField: 'title', textFields: ['summary', 'body'], trigger: 'publish', passageVoices: true },
        [PAGE]: { titleField: 'title', textFields: ['content'], trigger: 'save' },
      }),
    },
  }));
  const articles = contentManager(stack, ARTICLE);
  ({ documentId } = await articles.create({ title: 'placeholder', summary: 'Placeholder.', body: blocks('Placeholder.') }, 'en'));
  await articles.update(documentId, { title: 'ميزانية جديدة', summary: 'ملخص قصير.', body: blocks(ARABIC, ENGLISH, CLOSING) }, 'ar');
  await articles.publish(documentId, 'ar');
}, 150_000);

afterAll(() => closeAdminSession({ browser, stack }));

it('logs in', async () => {
  await logIn(page, stack.url);
});

it("the panel lists the passages with their languages and voices, and an editor's choice for one is kept", async () => {
  await page.goto(`${stack.url}/admin/content-manager/collection-types/${ARTICLE}/${documentId}?plugins[i18n][locale]=ar`);
  const card = page.getByTestId('speech-passages');
  await expectText(card.getByTestId('speech-passages-summary'), '2 voices: Arabic (ar-male-1), English (en-female-1) for 1 passage');
  // The card follows the admin's language; each passage's text reads in its own direction.
  expect(await card.getAttribute('dir')).toBe('ltr');
  expect(await card.getByTestId('speech-passage-2').getByTestId('speech-passage-text').getAttribute('dir')).toBe('auto');
  const english = card.getByTestId('speech-passage-3');
  await expectText(english, ENGLISH.slice(0, 40));
  await expectText(english.getByTestId('speech-passage-voice'), 'English · read by en-female-1 (its language)');
  expect(await english.getByTestId('speech-passage-text').getAttribute('dir')).toBe('auto');

  await english.getByRole('combobox', { name: 'Voice of this passage' }).click();
  await page.getByRole('option', { name: 'Emma (English) (en)' }).click();
  await expectText(english.getByTestId('speech-passage-voice'), '(chosen by an editor)');
  const listed = await stack.admin('POST', '/speech/narrations/passages', { contentType: ARTICLE, documentId, locale: 'ar' });
  expect(listed.body.passages[3]).toMatchObject({ reason: 'editor' });
  await card.scrollIntoViewIfNeeded();
  await shot('edit-passage-voices');
});

it('says the same in Arabic, right to left, with the admin in Arabic', async () => {
  await page.evaluate(() => localStorage.setItem('strapi-admin-language', 'ar'));
  await page.goto(`${stack.url}/admin/content-manager/collection-types/${ARTICLE}/${documentId}?plugins[i18n][locale]=ar`);
  const card = page.getByTestId('speech-passages');
  await expectText(card.getByTestId('speech-passages-summary'), 'صوتان');
  await expectText(card.getByTestId('speech-passage-0').getByTestId('speech-passage-voice'), 'بصوت ar-male-1 (صوت المقالة)');
  expect(await card.getAttribute('dir')).toBe('rtl');
  await card.scrollIntoViewIfNeeded();
  await shot('edit-passage-voices-ar');
  await page.evaluate(() => localStorage.setItem('strapi-admin-language', 'en'));
});

it('Settings -> Speech turns passage voices on for a type, and offers a quote voice per locale', async () => {
  await page.goto(`${stack.url}/admin/settings/speech`);
  const pageType = page.getByTestId(`speech-type-${PAGE}`);
  await pageType.waitFor();
  const passageVoices = pageType.getByTestId(`speech-type-passage-voices-${PAGE}`);
  await passageVoices.scrollIntoViewIfNeeded();
  expect(await passageVoices.getAttribute('data-state')).toBe('unchecked');
  await passageVoices.click();
  await page.getByTestId('speech-save').click();
  await page.getByText('Settings saved.').first().waitFor();
  const { settings } = (await stack.admin('GET', '/speech/settings')).body;
  expect(settings.contentTypes[PAGE].passageVoices).toBe(true);
  expect(settings.contentTypes[ARTICLE].passageVoices).toBe(true);
  await waitFor(async () => (await page.getByTestId('speech-quote-voice-ar-field').count()) > 0, { what: 'the quote voice of ar' });
  await pageType.scrollIntoViewIfNeeded();
  await shot('settings-passage-voices');
});

it('produced no console errors and no failed plugin requests', () => {
  expect(problems).toEqual([]);
});
