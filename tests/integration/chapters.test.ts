import { contentManager, startStack, type Stack } from './harness';
import { longBody, narrationAudio, publicNarration, publishArticleIn, setNarrationMode, waitForStatus } from './narration-helpers';
import { parseSrt } from '../../server/src/subtitles/srt';

/**
 * Chapters: a WebVTT chapters track from the article's headings and the stored SRT, served at
 * /api/speech/narrations/:articleId/chapters.vtt under the public routes' access rule. Each
 * chapter starts at the SRT cue where its heading is read, for English and Arabic.
 */

const ARTICLE = 'api::article.article';
jest.setTimeout(240_000);

let stack: Stack;

beforeAll(async () => {
  stack = await startStack({ env: { SPEECH_LOCALE_VOICES: 'ar=ar-male-1' } });
});

afterAll(async () => {
  await stack?.stop();
});

const heading = (text: string) => ({ type: 'heading', level: 2, children: [{ type: 'text', text }] });
const paragraph = (text: string) => ({ type: 'paragraph', children: [{ type: 'text', text }] });

async function text(pathname: string) {
  const response = await stack.request(pathname);
  return { status: response.status, type: response.headers.get('content-type'), body: await response.text() };
}

/** chapters.vtt of a narration: the title's chapter first, then one per heading, each starting at the SRT cue where it is read. */
async function expectChaptersAtHeadings(articleId: string, title: string, headings: string[]) {
  const narration = await publicNarration(stack, articleId);
  expect(narration.body.chaptersUrl).toBe(`${stack.url}/api/speech/narrations/${articleId}/chapters.vtt`);
  const chapters = await text(`/api/speech/narrations/${articleId}/chapters.vtt`);
  expect(chapters.status).toBe(200);
  expect(chapters.type).toMatch(/^text\/vtt/);
  expect(chapters.body.startsWith('WEBVTT\n\n')).toBe(true);
  const chapterCues = parseSrt(chapters.body.replace(/^WEBVTT\n\n/, ''));
  const srtCues = parseSrt((await text(`/api/speech/narrations/${articleId}/subtitles.srt`)).body);

  // The title and opening sentence come first, as a chapter named by the title.
  expect(chapterCues.map((cue) => cue.text)).toEqual([title, ...headings]);
  expect(chapterCues[0].startMs).toBe(srtCues[0].startMs);
  headings.forEach((name, index) => {
    const read = srtCues.find((cue) => cue.text === `${name}.`);
    expect(read).toBeDefined();
    expect(chapterCues[index + 1].startMs).toBe(read!.startMs);
    // Each chapter ends where the next begins; the last at the end of the audio.
    expect(chapterCues[index].endMs).toBe(chapterCues[index + 1].startMs);
  });
  expect(chapterCues[chapterCues.length - 1].endMs).toBe(srtCues[srtCues.length - 1].endMs);
  return { chapterCues, srtCues };
}

it.each([
  {
    locale: 'en',
    title: 'Narrated chapters',
    body: [
      paragraph('An opening sentence.'),
      heading('Listening on the move'),
      paragraph('Readers finish articles while walking. It helps.'),
      heading('Following along'),
      paragraph('Subtitles follow the voice.'),
    ],
    headings: ['Listening on the move', 'Following along'],
  },
  {
    locale: 'ar',
    title: 'فصول مسموعة',
    body: [
      paragraph('جملة افتتاحية.'),
      heading('الاستماع أثناء التنقل'),
      paragraph('يكمل القراء المقالات أثناء المشي.'),
      heading('المتابعة مع الصوت'),
      paragraph('الترجمة تتبع الصوت.'),
    ],
    headings: ['الاستماع أثناء التنقل', 'المتابعة مع الصوت'],
  },
])(
  'chapters.vtt of an $locale article: each chapter starts at the SRT cue where its heading is read',
  async ({ locale, title, body, headings }) => {
    const documentId = await publishArticleIn(stack, ARTICLE, locale, { title, body });
    await waitForStatus(stack, ARTICLE, documentId, 'completed', locale);
    await expectChaptersAtHeadings(`${documentId}-${locale}`, title, headings);
  }
);

it('chapters.vtt of a segmented article: headings in later parts start at their cues in the joined timeline', async () => {
  // Parts of at most 200 characters: each paragraph of `longBody` is a part of its own.
  await setNarrationMode(stack, ARTICLE, 'segmented', 200);
  try {
    const [opening, middle, closing] = longBody(3);
    const title = 'Chapters in parts';
    const headings = ['The middle part', 'The last part'];
    const body = [paragraph(opening), heading(headings[0]), paragraph(middle), heading(headings[1]), paragraph(closing)];
    const documentId = await publishArticleIn(stack, ARTICLE, 'en', { title, body });
    const row = await waitForStatus(stack, ARTICLE, documentId, 'completed', 'en', 120_000);
    expect(row.parts.total).toBeGreaterThanOrEqual(3);
    const articleId = `${documentId}-en`;
    const { chapterCues, srtCues } = await expectChaptersAtHeadings(articleId, title, headings);
    // One timeline: each part's cues after the parts before it, the last ending with the joined audio.
    for (let i = 1; i < srtCues.length; i += 1) expect(srtCues[i].startMs).toBeGreaterThanOrEqual(srtCues[i - 1].endMs);
    expect(chapterCues[1].startMs).toBeGreaterThan(chapterCues[0].startMs);
    expect(chapterCues[2].startMs).toBeGreaterThan(chapterCues[1].startMs);
    const { seconds } = await narrationAudio(stack, articleId);
    expect(Math.abs(srtCues[srtCues.length - 1].endMs - seconds * 1000)).toBeLessThanOrEqual(100);
  } finally {
    await setNarrationMode(stack, ARTICLE, 'whole');
  }
});

it('no heading: 404, and the narration says chaptersUrl null; a hidden narration is a 404 as well', async () => {
  const articles = contentManager(stack, ARTICLE);
  const { documentId } = await articles.create({ title: 'Flat', body: [paragraph('No headings here.')] }, 'en');
  await articles.publish(documentId, 'en');
  await waitForStatus(stack, ARTICLE, documentId, 'completed', 'en');
  expect((await publicNarration(stack, `${documentId}-en`)).body.chaptersUrl).toBeNull();
  expect((await text(`/api/speech/narrations/${documentId}-en/chapters.vtt`)).status).toBe(404);

  // Unpublished: the public routes hide the narration, chapters included.
  const { documentId: withHeadings } = await articles.create({ title: 'Hidden', body: [heading('A part'), paragraph('Words.')] }, 'en');
  await articles.publish(withHeadings, 'en');
  await waitForStatus(stack, ARTICLE, withHeadings, 'completed', 'en');
  expect((await text(`/api/speech/narrations/${withHeadings}-en/chapters.vtt`)).status).toBe(200);
  await articles.unpublish(withHeadings, 'en');
  expect((await text(`/api/speech/narrations/${withHeadings}-en/chapters.vtt`)).status).toBe(404);
  expect((await text('/api/speech/narrations/unknown-en/chapters.vtt')).status).toBe(404);
});
