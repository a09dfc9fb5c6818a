import { contentManager, startStack, type Stack } from './harness';
import { submissionsFor, waitForStatus } from './narration-helpers';

/**
 * What is read: block kinds a type skips are absent from the narrated text and its cost; intro
 * and outro templates are read and paid for. Set at run time, as Settings -> Speech saves them.
 */

const ARTICLE = 'api::article.article';
jest.setTimeout(240_000);

let stack: Stack;

beforeAll(async () => {
  stack = await startStack();
});

afterAll(async () => {
  await stack?.stop();
});

const paragraph = (text: string) => ({ type: 'paragraph', children: [{ type: 'text', text }] });

it('refuses an author field that may not be narrated and an unknown placeholder, naming them', async () => {
  const privateAuthor = await stack.admin('PUT', '/speech/settings', {
    contentTypes: { [ARTICLE]: { titleField: 'title', textFields: ['body'], authorField: 'internalNotes' } },
  });
  expect(privateAuthor.status).toBe(400);
  expect(privateAuthor.body.error.message).toMatch(/"internalNotes" is a private field/);
  const placeholder = await stack.admin('PUT', '/speech/settings', { introTemplates: { en: 'By {writer}' } });
  expect(placeholder.status).toBe(400);
  expect(placeholder.body.error.message).toMatch(/introTemplates\.en: \{writer\} is not a placeholder/);
  const kind = await stack.admin('PUT', '/speech/settings', {
    contentTypes: { [ARTICLE]: { textFields: ['body'], skipBlocks: ['sidebar'] } },
  });
  expect(kind.status).toBe(400);
});

it('skipped quotes are not read nor paid; the intro and outro are read and paid for', async () => {
  const saved = await stack.admin('PUT', '/speech/settings', {
    contentTypes: { [ARTICLE]: { titleField: 'title', textFields: ['body'], skipBlocks: ['quote'], authorField: 'summary' } },
    siteName: 'The Daily',
    introTemplates: { en: 'You are listening to {title} by {author}', ar: 'تستمعون إلى {title}' },
    outroTemplates: { '*': 'Thanks for listening to {site}.' },
  });
  expect(saved.status).toBe(200);
  expect(saved.body.settings).toMatchObject({
    siteName: 'The Daily',
    contentTypes: { [ARTICLE]: { skipBlocks: ['quote'], authorField: 'summary' } },
  });

  const articles = contentManager(stack, ARTICLE);
  const body = [
    paragraph('Read this sentence.'),
    { type: 'quote', children: [{ type: 'text', text: 'Never this quote.' }] },
    paragraph('And this one.'),
  ];
  const { documentId } = await articles.create({ title: 'Reading', summary: 'Layla', body }, 'en');
  await articles.update(
    documentId,
    {
      title: 'قراءة',
      summary: 'ليلى',
      body: [paragraph('اقرأ هذه الجملة.'), { type: 'quote', children: [{ type: 'text', text: 'لا هذا الاقتباس.' }] }],
    },
    'ar'
  );

  const expected = {
    en: 'You are listening to Reading by Layla.\n\nReading.\n\nRead this sentence.\n\nAnd this one.\n\nThanks for listening to The Daily.',
    ar: 'تستمعون إلى قراءة.\n\nقراءة.\n\nاقرأ هذه الجملة.\n\nThanks for listening to The Daily.',
  };
  for (const locale of ['en', 'ar'] as const) {
    const estimate = (await stack.admin('POST', '/speech/narrations/estimate', { contentType: ARTICLE, documentId, locale })).body;
    expect(estimate.characters).toBe([...expected[locale]].length);
    const creditsBefore = (await stack.control<any>('GET', '/credits')).credits;
    await articles.publish(documentId, locale);
    await waitForStatus(stack, ARTICLE, documentId, 'completed', locale);
    expect((await submissionsFor(stack, `${documentId}-${locale}`)).map((entry) => entry.body.text)).toEqual([expected[locale]]);
    expect(creditsBefore - (await stack.control<any>('GET', '/credits')).credits).toBe(estimate.credits);
  }
});
