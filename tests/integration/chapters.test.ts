import { contentManager, startStack, type Stack } from './harness';
import { publicNarration, publishArticleIn, waitForStatus } from './narration-helpers';
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
    const articleId = `${documentId}-${locale}`;

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
  }
);

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
