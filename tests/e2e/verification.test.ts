/**
 * Verified narration in a real headless Chromium against the playground and the emulator: the edit
 * view's panel shows where the audio differs from the text sent and plays from there, the list
 * marks the narration, Settings -> Speech turns checking on for a type; in English and in Arabic.
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
const TITLE = 'A narration that lost a sentence';
const ARABIC_TITLE = 'قراءة فقدت جملة';
const STT_STEP_MS = 300;

let stack: Stack;
let browser: Browser;
let page: Page;
const problems: string[] = [];

async function shot(name: string) {
  await page.screenshot({ path: path.join(ARTIFACTS, `${name}.png`) });
}

/** Publishes an article whose audio loses its fourth sentence (title, summary, then the body's second), and waits for its check. */
async function articleWithAHole(locale: 'en' | 'ar', title: string, summary: string, body: string) {
  await stack.control('POST', '/inject', { kind: 'dropSentence', sentence: 3 });
  const articles = contentManager(stack, ARTICLE);
  const { documentId } = await articles.create({ title, summary, body: blocks(body) }, locale);
  await articles.publish(documentId, locale);
  const verification = await waitFor(
    async () => {
      const { body: narrations } = await stack.admin(
        'GET',
        `/speech/narrations/document/${documentId}?contentType=${ARTICLE}&locale=${locale}`
      );
      const found = narrations?.data?.find((row: { locale: string }) => row.locale === locale)?.verification;
      return found && found.status !== 'pending' ? found : null;
    },
    { timeoutMs: 60_000, what: 'the check of the narration' }
  );
  expect(verification.status).toBe('mismatch');
  return { documentId, verification };
}

beforeAll(async () => {
  ({ stack, browser, page } = await openAdminSession('tests/e2e/verification.test.ts', problems, {
    env: {
      SPEECH_DEFAULT_VOICE: 'en-male-1',
      SPEECH_LOCALE_VOICES: 'ar=ar-male-1',
      SPEECH_STT_POLL_MS: String(STT_STEP_MS),
      SPEECH_CONTENT_TYPES: JSON.stringify({
        [ARTICLE]: { titleField: 'title', textFields: ['summary', 'body'], trigger: 'publish', verify: true },
        [PAGE]: { titleField: 'title', textFields: ['content'], trigger: 'save' },
      }),
    },
  }));
  await stack.control('PUT', '/config', { sttQueuedMs: STT_STEP_MS, sttProcessingMs: STT_STEP_MS });
}, 150_000);

afterAll(() => closeAdminSession({ browser, stack }));

it('logs in', async () => {
  await logIn(page, stack.url);
});

it('the panel lists the place where the audio differs from the text, and plays the audio from there', async () => {
  const { documentId, verification } = await articleWithAHole(
    'en',
    TITLE,
    'Checked by listening.',
    'The first sentence of the body stays. The second sentence goes missing. The third sentence stays too.'
  );
  await page.goto(`${stack.url}/admin/content-manager/collection-types/${ARTICLE}/${documentId}?plugins[i18n][locale]=en`);
  const card = page.getByTestId('speech-verification');
  await expectText(card.getByTestId('speech-verification-summary'), 'Check: 1 place differs');
  expect(await card.getAttribute('data-status')).toBe('mismatch');
  const place = card.getByTestId('speech-verification-place');
  await expectText(place, 'Sent: The second sentence goes missing');
  await expectText(place, 'Heard: —');

  await place.getByTestId('speech-verification-play').click();
  const at = verification.places[0].atSeconds as number;
  await waitFor(
    async () =>
      page
        .getByTestId('speech-audio')
        .evaluate((audio: HTMLAudioElement, from: number) => !audio.paused && audio.currentTime >= from - 0.05, at),
    { timeoutMs: 10_000, what: `the audio playing from ${at} s` }
  );
  await page.getByTestId('speech-audio').evaluate((audio: HTMLAudioElement) => audio.pause());
  await page.getByTestId('speech-panel').scrollIntoViewIfNeeded();
  await shot('edit-verification-mismatch');
});

it('the list marks the narration whose audio differs', async () => {
  await page.goto(`${stack.url}/admin/content-manager/collection-types/${ARTICLE}?plugins[i18n][locale]=en`);
  const badge = page.locator('tr', { hasText: TITLE }).getByTestId('speech-badge');
  await waitFor(async () => (await badge.getAttribute('data-kind').catch(() => null)) === 'mismatch', { what: 'the mismatch badge' });
  await expectText(badge, 'Ready, check audio');
  await shot('list-verification-mismatch');
});

it('Settings -> Speech turns checking on for a type, and sets the share of words a check must hear', async () => {
  await page.goto(`${stack.url}/admin/settings/speech`);
  const pageType = page.getByTestId(`speech-type-${PAGE}`);
  await pageType.waitFor();
  const verify = pageType.getByTestId(`speech-type-verify-${PAGE}`);
  await verify.scrollIntoViewIfNeeded();
  expect(await verify.getAttribute('data-state')).toBe('unchecked');
  await verify.click();
  // What a mismatch costs is said before it is chosen for good.
  const onMismatch = pageType.getByRole('combobox', { name: 'When a check finds a difference' });
  await expectText(onMismatch, 'Only flag it');
  await onMismatch.click();
  await page.getByRole('option', { name: 'Narrate the article again, once (paid)' }).click();
  await expectText(pageType, 'Paid like a regenerate');
  const share = page.getByTestId('speech-min-word-percent');
  expect(await share.inputValue()).toBe('95');
  await share.fill('90');
  await page.getByTestId('speech-save').click();
  await page.getByText('Settings saved.').first().waitFor();
  const { settings } = (await stack.admin('GET', '/speech/settings')).body;
  expect(settings.contentTypes[PAGE]).toMatchObject({ verify: true, verification: { onMismatch: 'regenerate' } });
  expect(settings.contentTypes[ARTICLE].verify).toBe(true);
  expect(settings.verification).toEqual({ minWordAccuracy: 0.9 });
  await pageType.scrollIntoViewIfNeeded();
  await shot('settings-verification');
});

it('says the same in Arabic, right to left, with the admin in Arabic', async () => {
  const { documentId } = await articleWithAHole(
    'ar',
    ARABIC_TITLE,
    'ملخص قصير.',
    'الجملة الأولى من النص باقية. الجملة الثانية ضاعت من الصوت. الجملة الثالثة باقية أيضا.'
  );
  await page.evaluate(() => localStorage.setItem('strapi-admin-language', 'ar'));
  await page.goto(`${stack.url}/admin/content-manager/collection-types/${ARTICLE}/${documentId}?plugins[i18n][locale]=ar`);
  const card = page.getByTestId('speech-verification');
  await expectText(card.getByTestId('speech-verification-summary'), 'للمراجعة: موضع واحد مختلف');
  expect(await card.getAttribute('dir')).toBe('rtl');
  await expectText(card.getByTestId('speech-verification-place'), 'المُرسَل: الجملة الثانية ضاعت من الصوت');
  await page.getByTestId('speech-panel').scrollIntoViewIfNeeded();
  await shot('edit-verification-mismatch-ar');
  await page.evaluate(() => localStorage.setItem('strapi-admin-language', 'en'));
});

it('produced no console errors and no failed plugin requests', () => {
  expect(problems).toEqual([]);
});
