import Database from 'better-sqlite3';
import path from 'node:path';
import { parseSrt } from '../../server/src/subtitles/srt';
import { blocks, contentManager, startStack, type Stack } from './harness';
import {
  codePoints,
  emulatorDuration,
  narrationRow,
  partRequests,
  publicNarration,
  publishArticleIn,
  spokenText,
  submissionsFor,
  waitForNewNarration,
  waitForStatus,
} from './narration-helpers';

/**
 * Every passage in its own voice (docs/passage-voices.md) on a real Strapi against the emulator:
 * a type with `passageVoices` sends each run of one voice as a part of its own, in that voice, and
 * the parts are joined into one narration in document order, paid for their characters.
 */

jest.setTimeout(240_000);

const ARTICLE = 'api::article.article';
const PAGE = 'api::page.page';

const ARABIC_OPENING = 'قال الوزير في مؤتمر صحفي إن الحكومة ستعمل على تحسين الخدمات العامة خلال العام المقبل.';
const ENGLISH_QUOTE = 'The minister said the new budget focuses on education, health and the public services people use every day.';
const ARABIC_CLOSING = 'وأضاف أن الميزانية الجديدة تركز على التعليم والصحة وأن العمل سيبدأ في الشهر القادم.';

let stack: Stack;

/** The editors' passage voices stored, all documents together. */
function passageVoiceRows(): number {
  const db = new Database(path.join(stack.workDir, 'data.db'), { readonly: true });
  try {
    return (db.prepare('select count(*) as count from speech_passage_voices').get() as { count: number }).count;
  } finally {
    db.close();
  }
}

beforeAll(async () => {
  stack = await startStack({
    env: {
      SPEECH_DEFAULT_VOICE: 'en-male-1',
      SPEECH_LOCALE_VOICES: 'ar=ar-male-1,en=en-female-1',
      SPEECH_CONTENT_TYPES: JSON.stringify({
        [ARTICLE]: { titleField: 'title', textFields: ['body'], trigger: 'publish', passageVoices: true },
        [PAGE]: { titleField: 'title', textFields: ['content'], trigger: 'save' },
      }),
    },
  });
});

afterAll(async () => {
  await stack?.stop();
});

/** The requests the service accepted for an article's parts, as [voice, text]. */
async function sentParts(articleId: string) {
  return (await partRequests(stack, articleId))
    .filter((request) => request.status === 202)
    .map((request) => [request.body.postData.voiceId, request.body.text] as [string, string]);
}

async function subtitlesOf(articleId: string) {
  const response = await stack.request(`/api/speech/narrations/${encodeURIComponent(articleId)}/subtitles.srt`);
  expect(response.status).toBe(200);
  return spokenText(await response.text());
}

it('an English paragraph inside an Arabic article goes to the service in the English voice alone, and comes back in its place', async () => {
  const creditsBefore = (await stack.control<{ credits: number }>('GET', '/credits')).credits;
  const documentId = await publishArticleIn(stack, ARTICLE, 'ar', {
    title: 'ميزانية جديدة',
    body: blocks(ARABIC_OPENING, ENGLISH_QUOTE, ARABIC_CLOSING),
  });
  const articleId = `${documentId}-ar`;
  const row = await waitForStatus(stack, ARTICLE, documentId, 'completed', 'ar', 90_000);

  const parts = await sentParts(articleId);
  expect(parts).toEqual([
    ['ar-male-1', `ميزانية جديدة.\n\n${ARABIC_OPENING}`],
    ['en-female-1', ENGLISH_QUOTE],
    ['ar-male-1', ARABIC_CLOSING],
  ]);
  // Nothing was sent for the article as a whole.
  expect(await submissionsFor(stack, articleId)).toEqual([]);
  // Paid: the parts' characters, nothing more.
  const characters = parts.reduce((sum, [, text]) => sum + codePoints(text), 0);
  expect(creditsBefore - (await stack.control<{ credits: number }>('GET', '/credits')).credits).toBe(characters);
  expect(row.credits).toBe(characters);

  // One narration: one MP3 and one SRT, in document order.
  expect(row.parts.total).toBe(3);
  const spoken = await subtitlesOf(articleId);
  const at = (text: string) => spoken.indexOf(text.split(' ').slice(0, 3).join(' '));
  expect(at(ENGLISH_QUOTE)).toBeGreaterThan(at(ARABIC_OPENING));
  expect(at(ARABIC_CLOSING)).toBeGreaterThan(at(ENGLISH_QUOTE));
  const audio = await stack.request(`/api/speech/narrations/${encodeURIComponent(articleId)}/audio.mp3`);
  expect(audio.status).toBe(200);
  expect(audio.headers.get('content-type')).toBe('audio/mpeg');
  // One WebVTT and one duration for the whole, the audio's (the parts joined).
  const vtt = await stack.request(`/api/speech/narrations/${encodeURIComponent(articleId)}/subtitles.vtt`);
  expect(vtt.status).toBe(200);
  expect(spokenText(await vtt.text())).toBe(spoken);
  const { body: listed } = await publicNarration(stack, articleId);
  expect(listed.durationSeconds).toBeCloseTo(emulatorDuration(Buffer.from(await audio.arrayBuffer())), 1);
});

const quote = (text: string) => ({ type: 'quote', children: [{ type: 'text', text }] });

it('an Arabic quote inside an English article goes in the Arabic voice; with quoteVoices.en, an English quote in the quote voice', async () => {
  const opening = 'The minister spoke to reporters after the meeting, and he was asked about the budget for schools.';
  const closing = 'The budget will be voted on next month, after a debate in parliament that is expected to last a week.';
  const arabic = await publishArticleIn(stack, ARTICLE, 'en', {
    title: 'A new budget',
    body: [...blocks(opening), quote(ARABIC_OPENING), ...blocks(closing)],
  });
  await waitForStatus(stack, ARTICLE, arabic, 'completed', 'en', 90_000);
  expect((await sentParts(`${arabic}-en`)).map(([voice]) => voice)).toEqual(['en-female-1', 'ar-male-1', 'en-female-1']);

  const saved = await stack.admin('PUT', '/speech/settings', { quoteVoices: { en: 'en-male-1' } });
  expect(saved.status).toBe(200);
  expect(saved.body.settings.quoteVoices).toEqual({ en: 'en-male-1' });
  try {
    const english = await publishArticleIn(stack, ARTICLE, 'en', {
      title: 'Quoted',
      body: [...blocks(opening), quote(ENGLISH_QUOTE), ...blocks(closing)],
    });
    await waitForStatus(stack, ARTICLE, english, 'completed', 'en', 90_000);
    expect(await sentParts(`${english}-en`)).toEqual([
      ['en-female-1', `Quoted.\n\n${opening}`],
      ['en-male-1', ENGLISH_QUOTE],
      ['en-female-1', closing],
    ]);
  } finally {
    await stack.admin('PUT', '/speech/settings', { quoteVoices: {} });
  }
});

it('settings: passageVoices per type and quoteVoices by locale are taken at run time; a bad value is refused naming its key', async () => {
  const refused = await stack.admin('PUT', '/speech/settings', { quoteVoices: { en: '' } });
  expect(refused.status).toBe(400);
  expect(JSON.stringify(refused.body)).toContain('quoteVoices');
  const page = (await stack.admin('GET', '/speech/settings')).body.settings.contentTypes[PAGE];
  const bad = await stack.admin('PUT', '/speech/settings', { contentTypes: { [PAGE]: { ...page, passageVoices: 'yes' } } });
  expect(bad.status).toBe(400);
  expect(JSON.stringify(bad.body)).toContain('passageVoices');
  const on = await stack.admin('PUT', '/speech/settings', { contentTypes: { [PAGE]: { ...page, passageVoices: true } } });
  expect(on.status).toBe(200);
  expect(on.body.settings.contentTypes[PAGE].passageVoices).toBe(true);
  // The file's types keep theirs under the saved map.
  expect(on.body.settings.contentTypes[ARTICLE].passageVoices).toBe(true);
  const off = await stack.admin('PUT', '/speech/settings', { contentTypes: { [PAGE]: { ...page, passageVoices: false } } });
  expect(off.body.settings.contentTypes[PAGE].passageVoices).toBe(false);
});

it('a short foreign name inside an Arabic sentence does not split it: one voice, one request as today', async () => {
  const documentId = await publishArticleIn(stack, ARTICLE, 'ar', {
    title: 'هاتف جديد',
    body: blocks('أعلنت شركة Apple اليوم عن هاتف جديد سيصل إلى الأسواق العربية قبل نهاية العام.', 'iPhone 17'),
  });
  const articleId = `${documentId}-ar`;
  await waitForStatus(stack, ARTICLE, documentId, 'completed', 'ar', 90_000);
  expect(await sentParts(articleId)).toEqual([]);
  const [request] = await submissionsFor(stack, articleId);
  expect(request.body.postData.voiceId).toBe('ar-male-1');
  expect(request.body.text).toContain('iPhone 17');
});

it('without passageVoices, a bilingual page is exactly one request in its voice, as today', async () => {
  const pages = contentManager(stack, PAGE);
  const { documentId } = await pages.create({ title: 'Bilingual page', content: `${ARABIC_OPENING}\n\n${ENGLISH_QUOTE}` });
  const row = await waitForStatus(stack, PAGE, documentId, 'completed');
  const requests = await submissionsFor(stack, row.articleId);
  expect(requests).toHaveLength(1);
  expect(requests[0].body.postData.voiceId).toBe('en-male-1');
  expect(await sentParts(row.articleId)).toEqual([]);
});

it('an edit of the English paragraph pays for that part alone', async () => {
  const documentId = await publishArticleIn(stack, ARTICLE, 'ar', {
    title: 'ميزانية معدلة',
    body: blocks(ARABIC_OPENING, ENGLISH_QUOTE, ARABIC_CLOSING),
  });
  const articleId = `${documentId}-ar`;
  const first = await waitForStatus(stack, ARTICLE, documentId, 'completed', 'ar', 90_000);
  const sentBefore = (await sentParts(articleId)).length;
  const creditsBefore = (await stack.control<{ credits: number }>('GET', '/credits')).credits;

  const edited = ENGLISH_QUOTE.replace('every day', 'every single day');
  const articles = contentManager(stack, ARTICLE);
  await articles.update(documentId, { body: blocks(ARABIC_OPENING, edited, ARABIC_CLOSING) }, 'ar');
  await articles.publish(documentId, 'ar');
  await waitForNewNarration(stack, ARTICLE, documentId, 'ar', first.completedAt, 90_000);

  const asked = (await sentParts(articleId)).slice(sentBefore);
  expect(asked).toEqual([['en-female-1', edited]]);
  expect(creditsBefore - (await stack.control<{ credits: number }>('GET', '/credits')).credits).toBe(codePoints(edited));
  expect(await subtitlesOf(articleId)).toContain('every single day');
  expect((await narrationRow(stack, ARTICLE, documentId, 'ar')).status).toBe('completed');
});

it("the edit view lists the passages with their languages and voices; an editor's voice for one wins, and a republish of unchanged text pays nothing more", async () => {
  const documentId = await publishArticleIn(stack, ARTICLE, 'ar', {
    title: 'اختيار المحرر',
    body: blocks(ARABIC_OPENING, ENGLISH_QUOTE, ARABIC_CLOSING),
  });
  const articleId = `${documentId}-ar`;
  const first = await waitForStatus(stack, ARTICLE, documentId, 'completed', 'ar', 90_000);
  const target = { contentType: ARTICLE, documentId, locale: 'ar' };

  const listed = await stack.admin('POST', '/speech/narrations/passages', target);
  expect(listed.status).toBe(200);
  expect(listed.body).toMatchObject({ articleId, voiceId: 'ar-male-1', passageVoices: true, unvoicedLanguages: [] });
  expect(listed.body.passages.map((passage: any) => [passage.language, passage.voiceId, passage.reason])).toEqual([
    ['ar', 'ar-male-1', 'article'],
    ['ar', 'ar-male-1', 'article'],
    ['en', 'en-female-1', 'language'],
    ['ar', 'ar-male-1', 'article'],
  ]);
  expect(listed.body.voices.map((voice: any) => [voice.voiceId, voice.passages])).toEqual([
    ['ar-male-1', 3],
    ['en-female-1', 1],
  ]);
  const english = listed.body.passages[2];
  expect(english.text).toBe(ENGLISH_QUOTE);

  // Bad input changes nothing.
  expect(
    (await stack.admin('PUT', '/speech/narrations/passages/voice', { ...target, passageKey: 'nope', voiceId: 'en-male-1' })).status
  ).toBe(400);
  expect((await stack.admin('PUT', '/speech/narrations/passages/voice', { ...target, passageKey: english.key, voiceId: '' })).status).toBe(
    400
  );
  const notOfTheDocument = await stack.admin('PUT', '/speech/narrations/passages/voice', {
    ...target,
    passageKey: '0123456789abcdef',
    voiceId: 'en-male-1',
  });
  expect([notOfTheDocument.status, notOfTheDocument.body.error.message]).toEqual([
    400,
    'passageKey: "0123456789abcdef" is not a passage of this document.',
  ]);
  const unknownVoice = await stack.admin('PUT', '/speech/narrations/passages/voice', {
    ...target,
    passageKey: english.key,
    voiceId: 'xx-nobody-1',
  });
  expect([unknownVoice.status, unknownVoice.body.error.message]).toEqual([400, 'voiceId: "xx-nobody-1" is not in the voice list.']);
  const page = await contentManager(stack, PAGE).create({ title: 'A page', content: 'A page read in one voice, saved.' });
  const onPage = await stack.admin('PUT', '/speech/narrations/passages/voice', {
    contentType: PAGE,
    documentId: page.documentId,
    passageKey: english.key,
    voiceId: 'en-male-1',
  });
  expect([onPage.status, onPage.body.error.message]).toEqual([400, 'This content type does not read passages in voices of their own.']);
  expect(passageVoiceRows()).toBe(0);

  const chosen = await stack.admin('PUT', '/speech/narrations/passages/voice', {
    ...target,
    passageKey: english.key,
    voiceId: 'en-male-1',
  });
  expect(chosen.status).toBe(200);
  expect(chosen.body).toEqual({ articleId, passageKey: english.key, voiceId: 'en-male-1' });
  const relisted = (await stack.admin('POST', '/speech/narrations/passages', target)).body;
  expect([relisted.passages[2].voiceId, relisted.passages[2].reason]).toEqual(['en-male-1', 'editor']);
  // The estimate says what a publish would send: the English passage alone, in its new voice.
  const estimate = (await stack.admin('POST', '/speech/narrations/estimate', target)).body;
  expect(estimate.requestsByVoice).toEqual([
    { voiceId: 'en-male-1', requests: 1, characters: codePoints(ENGLISH_QUOTE), credits: codePoints(ENGLISH_QUOTE) },
  ]);

  const sentBefore = (await sentParts(articleId)).length;
  await contentManager(stack, ARTICLE).publish(documentId, 'ar');
  const second = await waitForNewNarration(stack, ARTICLE, documentId, 'ar', first.completedAt, 90_000);
  expect((await sentParts(articleId)).slice(sentBefore)).toEqual([['en-male-1', ENGLISH_QUOTE]]);

  // Published again, unchanged: the choice holds and nothing is paid.
  const creditsBefore = (await stack.control<{ credits: number }>('GET', '/credits')).credits;
  await contentManager(stack, ARTICLE).publish(documentId, 'ar');
  await new Promise((resolve) => setTimeout(resolve, 1_500));
  expect((await sentParts(articleId)).length).toBe(sentBefore + 1);
  expect((await stack.control<{ credits: number }>('GET', '/credits')).credits).toBe(creditsBefore);
  expect((await narrationRow(stack, ARTICLE, documentId, 'ar')).completedAt).toBe(second.completedAt);

  // Given back to the rules: the English voice again (its part is still at the service: re-delivered, not paid).
  expect(
    (await stack.admin('PUT', '/speech/narrations/passages/voice', { ...target, passageKey: english.key, voiceId: null })).status
  ).toBe(200);
  expect((await stack.admin('POST', '/speech/narrations/passages', target)).body.passages[2].reason).toBe('language');
});

it("an editor's voice for a passage that is gone from the draft and the published text goes when the next version is recorded", async () => {
  const documentId = await publishArticleIn(stack, ARTICLE, 'ar', {
    title: 'فقرة تذهب',
    body: blocks(ARABIC_OPENING, ENGLISH_QUOTE, ARABIC_CLOSING),
  });
  const first = await waitForStatus(stack, ARTICLE, documentId, 'completed', 'ar', 90_000);
  const target = { contentType: ARTICLE, documentId, locale: 'ar' };
  const listed = (await stack.admin('POST', '/speech/narrations/passages', target)).body.passages;
  const opening = listed.find((passage: any) => passage.text === ARABIC_OPENING);
  const english = listed.find((passage: any) => passage.text === ENGLISH_QUOTE);
  for (const passage of [opening, english])
    expect(
      (await stack.admin('PUT', '/speech/narrations/passages/voice', { ...target, passageKey: passage.key, voiceId: 'ar-male-2' })).status
    ).toBe(200);
  const before = passageVoiceRows();
  const articles = contentManager(stack, ARTICLE);
  await articles.update(documentId, { body: blocks(ARABIC_OPENING, ARABIC_CLOSING) }, 'ar');
  await articles.publish(documentId, 'ar');
  await waitForNewNarration(stack, ARTICLE, documentId, 'ar', first.completedAt, 90_000);
  expect(passageVoiceRows()).toBe(before - 1);
  const kept = (await stack.admin('POST', '/speech/narrations/passages', target)).body.passages;
  expect(kept.find((passage: any) => passage.key === opening.key)?.reason).toBe('editor');
  expect(kept.some((passage: any) => passage.key === english.key)).toBe(false);
});

it("a language of the site without a voice of its own is read by the article's voice, and the list says so once", async () => {
  const documentId = await publishArticleIn(stack, ARTICLE, 'ar', {
    title: 'بلا صوت إنجليزي',
    body: blocks(ARABIC_OPENING, ENGLISH_QUOTE, ARABIC_CLOSING),
  });
  await waitForStatus(stack, ARTICLE, documentId, 'completed', 'ar', 90_000);
  expect((await stack.admin('PUT', '/speech/settings', { localeVoices: { ar: 'ar-male-1' } })).status).toBe(200);
  try {
    const listed = (await stack.admin('POST', '/speech/narrations/passages', { contentType: ARTICLE, documentId, locale: 'ar' })).body;
    expect(listed.unvoicedLanguages).toEqual(['en']);
    expect(listed.passages.map((passage: any) => [passage.language, passage.voiceId, passage.reason])).toEqual([
      ['ar', 'ar-male-1', 'article'],
      ['ar', 'ar-male-1', 'article'],
      ['en', 'ar-male-1', 'no-voice'],
      ['ar', 'ar-male-1', 'article'],
    ]);
    expect(listed.voices).toEqual([expect.objectContaining({ voiceId: 'ar-male-1', passages: 4 })]);
  } finally {
    await stack.admin('PUT', '/speech/settings', { localeVoices: { ar: 'ar-male-1', en: 'en-female-1' } });
  }
});

it("a heading's chapter starts where it is read in the joined audio, across voices", async () => {
  const heading = { type: 'heading', level: 2, children: [{ type: 'text', text: 'ما قاله الوزير' }] };
  const documentId = await publishArticleIn(stack, ARTICLE, 'ar', {
    title: 'فصول بصوتين',
    body: [...blocks(ARABIC_OPENING), heading, ...blocks(ENGLISH_QUOTE, ARABIC_CLOSING)],
  });
  const articleId = `${documentId}-ar`;
  await waitForStatus(stack, ARTICLE, documentId, 'completed', 'ar', 90_000);
  expect((await sentParts(articleId)).map(([voice]) => voice)).toEqual(['ar-male-1', 'en-female-1', 'ar-male-1']);
  const { body } = await publicNarration(stack, articleId);
  expect(body.chaptersUrl).toBe(`${stack.url}/api/speech/narrations/${articleId}/chapters.vtt`);
  const chapters = parseSrt(
    (await (await stack.request(`/api/speech/narrations/${articleId}/chapters.vtt`)).text()).replace(/^WEBVTT\n\n/, '')
  );
  const cues = parseSrt(await (await stack.request(`/api/speech/narrations/${articleId}/subtitles.srt`)).text());
  expect(chapters.map((chapter) => chapter.text)).toEqual(['فصول بصوتين', 'ما قاله الوزير']);
  const read = cues.find((cue) => cue.text === 'ما قاله الوزير.');
  expect(read).toBeDefined();
  expect(chapters[1].startMs).toBe(read!.startMs);
  expect(chapters[1].endMs).toBe(cues[cues.length - 1].endMs);
});
