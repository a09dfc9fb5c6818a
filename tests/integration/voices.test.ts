import { blocks, contentManager, EMULATOR_API_KEY, startStack, type Stack } from './harness';
import { submissionsFor, waitForStatus } from './narration-helpers';

/**
 * Every article in its own voice: the voice of an article is its override, else its locale's
 * default (`localeVoices`), else the global default; a voice the voice list gives another
 * language than the article's is flagged before anything is paid. The emulator's voices carry
 * their language (ar-*: ar, en-*: en).
 */

const ARTICLE = 'api::article.article';
jest.setTimeout(240_000);

let stack: Stack;

beforeAll(async () => {
  stack = await startStack({ env: { SPEECH_LOCALE_VOICES: 'ar=ar-female-1', SPEECH_DEFAULT_VOICE: 'en-female-1' } });
});

afterAll(async () => {
  await stack?.stop();
});

/** An English article with an Arabic locale, both drafts. */
async function bilingualArticle(title: string) {
  const articles = contentManager(stack, ARTICLE);
  const { documentId } = await articles.create({ title, summary: 'An English summary.', body: blocks('An English paragraph.') }, 'en');
  await articles.update(documentId, { title: `${title} بالعربية`, summary: 'ملخص قصير.', body: blocks('هذه فقرة عربية.') }, 'ar');
  return { documentId, articles };
}

const estimate = async (documentId: string, locale: string) =>
  (await stack.admin('POST', '/speech/narrations/estimate', { contentType: ARTICLE, documentId, locale })).body;

it('publishing the ar version submits the ar voice, the en version (no locale default) the global one', async () => {
  const { documentId, articles } = await bilingualArticle('Voices per locale');
  await articles.publish(documentId, 'ar');
  await articles.publish(documentId, 'en');
  await waitForStatus(stack, ARTICLE, documentId, 'completed', 'ar');
  await waitForStatus(stack, ARTICLE, documentId, 'completed', 'en');
  const voiceOf = async (locale: string) =>
    (await submissionsFor(stack, `${documentId}-${locale}`)).map((entry) => entry.body.postData.voiceId);
  expect(await voiceOf('ar')).toEqual(['ar-female-1']);
  expect(await voiceOf('en')).toEqual(['en-female-1']);
});

it('an override still wins, and a voice of the wrong language is flagged in the estimate before it is paid', async () => {
  const { documentId, articles } = await bilingualArticle('Override wins');
  expect((await estimate(documentId, 'ar')).voice).toEqual({ id: 'ar-female-1', language: 'ar', mismatch: false });
  expect((await estimate(documentId, 'en')).voice).toEqual({ id: 'en-female-1', language: 'en', mismatch: false });

  const chosen = await stack.admin('PUT', '/speech/narrations/voice', {
    contentType: ARTICLE,
    documentId,
    locale: 'ar',
    voiceId: 'en-male-1',
  });
  expect(chosen.status).toBe(200);
  const flagged = await estimate(documentId, 'ar');
  expect(flagged).toMatchObject({
    voiceId: 'en-male-1',
    voiceOverride: 'en-male-1',
    voice: { id: 'en-male-1', language: 'en', mismatch: true },
  });

  const bulk = await stack.admin('POST', '/speech/narrations/estimate-many', {
    contentType: ARTICLE,
    documentIds: [documentId],
    locale: 'ar',
  });
  expect(bulk.body).toMatchObject({ toSubmit: 1, voiceMismatches: 1, items: [{ documentId, voice: { id: 'en-male-1', mismatch: true } }] });

  // Publishing still works, in the chosen voice.
  await articles.publish(documentId, 'ar');
  await waitForStatus(stack, ARTICLE, documentId, 'completed', 'ar');
  expect((await submissionsFor(stack, `${documentId}-ar`)).map((entry) => entry.body.postData.voiceId)).toEqual(['en-male-1']);
});

it('Settings -> Speech: voices per locale are validated, saved, applied, and checked per site locale', async () => {
  const refused = await stack.admin('PUT', '/speech/settings', { localeVoices: { ar: '' } });
  expect(refused.status).toBe(400);
  expect(refused.body.error.message).toMatch(/localeVoices\.ar: must name a voice/);
  const notALocale = await stack.admin('PUT', '/speech/settings', { localeVoices: { 'arabic please': 'ar-male-1' } });
  expect(notALocale.status).toBe(400);

  const before = await stack.admin('GET', '/speech/settings');
  expect(before.body.locales).toEqual(expect.arrayContaining(['en', 'ar']));
  expect(before.body.localeVoiceChecks).toMatchObject({
    ar: { id: 'ar-female-1', mismatch: false },
    en: { id: 'en-female-1', mismatch: false },
  });

  // The global default now speaks Arabic: English (which has no voice of its own) is flagged.
  const saved = await stack.admin('PUT', '/speech/settings', { localeVoices: { ar: 'ar-male-1' }, defaultVoiceId: 'ar-male-2' });
  expect(saved.status).toBe(200);
  expect(saved.body.settings.localeVoices).toEqual({ ar: 'ar-male-1' });
  const after = await stack.admin('GET', '/speech/settings');
  expect(after.body.localeVoiceChecks).toMatchObject({
    ar: { id: 'ar-male-1', mismatch: false },
    en: { id: 'ar-male-2', language: 'ar', mismatch: true },
  });

  const { documentId } = await bilingualArticle('Runtime voices');
  expect((await estimate(documentId, 'ar')).voice).toEqual({ id: 'ar-male-1', language: 'ar', mismatch: false });
  expect((await estimate(documentId, 'en')).voice).toEqual({ id: 'ar-male-2', language: 'ar', mismatch: true });

  // Kept across a restart, like the other runtime settings.
  await stack.restartStrapi();
  expect((await stack.admin('GET', '/speech/settings')).body.settings.localeVoices).toEqual({ ar: 'ar-male-1' });
  await stack.admin('PUT', '/speech/settings', { defaultVoiceId: 'en-female-1' });
});

it('a voice not in the voice list is refused with a 400 that names it, for an article and in the settings; nothing is stored', async () => {
  const { documentId } = await bilingualArticle('Unknown voice');
  const chosen = await stack.admin('PUT', '/speech/narrations/voice', {
    contentType: ARTICLE,
    documentId,
    locale: 'en',
    voiceId: 'xx-nobody-1',
  });
  expect(chosen.status).toBe(400);
  expect(chosen.body.error.message).toBe('voiceId: "xx-nobody-1" is not in the voice list.');
  expect((await estimate(documentId, 'en')).voiceOverride ?? null).toBeNull();

  const before = (await stack.admin('GET', '/speech/settings')).body.settings;
  for (const [change, message] of [
    [{ localeVoices: { ...before.localeVoices, en: 'xx-nobody-2' } }, 'localeVoices.en: "xx-nobody-2" is not in the voice list.'],
    [{ quoteVoices: { ar: 'xx-nobody-3' } }, 'quoteVoices.ar: "xx-nobody-3" is not in the voice list.'],
    [{ defaultVoiceId: 'xx-nobody-4', siteName: 'Not saved either' }, 'defaultVoiceId: "xx-nobody-4" is not in the voice list.'],
  ] as const) {
    const refused = await stack.admin('PUT', '/speech/settings', change);
    expect({ change, status: refused.status, message: refused.body.error?.message }).toEqual({ change, status: 400, message });
  }
  expect((await stack.admin('GET', '/speech/settings')).body.settings).toEqual(before);
  // A voice in effect already is not looked up again: saving the page unchanged still works.
  expect((await stack.admin('PUT', '/speech/settings', { localeVoices: before.localeVoices })).status).toBe(200);
});

it('a voice the key may not use (403): that article fails in plain words, the next one is narrated, and the queue goes on', async () => {
  const articles = contentManager(stack, ARTICLE);
  const refusedOne = await articles.create({ title: 'In a voice the key may not use', body: blocks('Read in a premium voice.') }, 'en');
  const next = await articles.create({ title: 'In the site voice', body: blocks('Read in the default voice.') }, 'en');
  const chosen = { contentType: ARTICLE, documentId: refusedOne.documentId, locale: 'en', voiceId: 'en-male-1' };
  expect((await stack.admin('PUT', '/speech/narrations/voice', chosen)).status).toBe(200);
  await stack.control('PUT', '/config', { restrictedKeys: { [EMULATOR_API_KEY]: ['en-male-1'] } });
  try {
    await articles.publish(refusedOne.documentId, 'en');
    await articles.publish(next.documentId, 'en');
    const failed = await waitForStatus(stack, ARTICLE, refusedOne.documentId, 'failed', 'en');
    expect(failed.lastErrorCode).toBe('FORBIDDEN');
    expect(failed.lastError).toContain('does not let this site\'s API key use the voice "en-male-1"');
    expect(failed.lastError).toContain('Choose another voice for this article.');
    await waitForStatus(stack, ARTICLE, next.documentId, 'completed', 'en');
    expect((await submissionsFor(stack, `${refusedOne.documentId}-en`)).map((entry) => entry.status)).toEqual([403]);
    expect((await stack.admin('GET', '/speech/settings')).body.queue).toMatchObject({ paused: false });
  } finally {
    await stack.control('PUT', '/config', { restrictedKeys: {} });
  }
});
