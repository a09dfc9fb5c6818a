import { blocks, contentManager, startStack, type Stack } from './harness';
import { sleep, submissionsFor, waitForNewNarration, waitForStatus } from './narration-helpers';

/**
 * The pronunciation lexicon: rules change the submitted text and the previewed cost identically;
 * changing the lexicon submits nothing by itself; the bulk dialog learns which published articles
 * it would change and what that costs; a rule can be heard.
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

const codePoints = (text: string) => [...text].length;

it('refuses a bad lexicon with messages that name the rule', async () => {
  const empty = await stack.admin('PUT', '/speech/settings', { lexicon: [{ term: ' ', spoken: 'x' }] });
  expect(empty.status).toBe(400);
  expect(empty.body.error.message).toBe('lexicon.0.term: write the term to replace');
  const repeated = await stack.admin('PUT', '/speech/settings', {
    lexicon: [
      { term: 'SQL', spoken: 'a' },
      { term: 'sql', spoken: 'b' },
    ],
  });
  expect(repeated.status).toBe(400);
  expect(repeated.body.error.message).toMatch(/lexicon\.1\.term: repeats the term of rule 1/);
});

it('a rule changes the submitted text and the previewed cost identically, only after the next publish', async () => {
  const articles = contentManager(stack, ARTICLE);
  const { documentId } = await articles.create(
    { title: 'Databases', summary: 'SQL or SQLite?', body: blocks('We query SQL daily.') },
    'en'
  );
  const { documentId: unrelated } = await articles.create({ title: 'Gardening', summary: 'Roses.', body: blocks('Water them.') }, 'en');
  await articles.publish(documentId, 'en');
  await articles.publish(unrelated, 'en');
  const first = await waitForStatus(stack, ARTICLE, documentId, 'completed', 'en');
  await waitForStatus(stack, ARTICLE, unrelated, 'completed', 'en');
  const articleId = `${documentId}-en`;
  expect((await submissionsFor(stack, articleId)).map((entry) => entry.body.text)).toEqual([
    'Databases.\n\nSQL or SQLite?\n\nWe query SQL daily.',
  ]);

  const saved = await stack.admin('PUT', '/speech/settings', {
    lexicon: [
      { term: 'sql', spoken: 'sequel', locale: 'en' },
      { term: 'Roses', spoken: 'Rosen', locale: 'de' },
    ],
  });
  expect(saved.status).toBe(200);
  expect(saved.body.settings.lexicon[0]).toEqual({
    term: 'sql',
    spoken: 'sequel',
    locale: 'en',
    wholeWord: true,
    caseSensitive: false,
    ignoreDiacritics: false,
    letterVariants: false,
  });

  // Changing the lexicon submits nothing.
  await sleep(1_500);
  expect(await submissionsFor(stack, articleId)).toHaveLength(1);

  // The bulk dialog: the article the lexicon changes, with its cost; not the unrelated one.
  const estimate = (await stack.admin('POST', '/speech/narrations/estimate', { contentType: ARTICLE, documentId, locale: 'en' })).body;
  const affected = await stack.admin('POST', '/speech/lexicon/affected', { contentType: ARTICLE, locale: 'en' });
  expect(affected.status).toBe(200);
  expect(affected.body).toMatchObject({
    items: [{ documentId, articleId, characters: estimate.characters, credits: estimate.credits }],
    totalCredits: estimate.credits,
    page: 1,
    total: 2,
    refused: 0,
  });
  expect(estimate).toMatchObject({ unchanged: false });
  expect(await submissionsFor(stack, articleId)).toHaveLength(1);

  // The next publish sends the text the estimate described, and pays exactly its credits.
  const creditsBefore = (await stack.control<any>('GET', '/credits')).credits;
  await articles.publish(documentId, 'en');
  await waitForNewNarration(stack, ARTICLE, documentId, 'en', first.completedAt);
  const texts = (await submissionsFor(stack, articleId)).map((entry) => entry.body.text);
  expect(texts[1]).toBe('Databases.\n\nsequel or SQLite?\n\nWe query sequel daily.');
  expect(codePoints(texts[1])).toBe(estimate.characters);
  expect(creditsBefore - (await stack.control<any>('GET', '/credits')).credits).toBe(estimate.credits);

  // Narrated with the lexicon: nothing is left to change.
  expect((await stack.admin('POST', '/speech/lexicon/affected', { contentType: ARTICLE, locale: 'en' })).body.items).toEqual([]);
  // The unrelated article was never submitted again.
  expect(await submissionsFor(stack, `${unrelated}-en`)).toHaveLength(1);
});

it('"hear it" speaks a rule in its locale\'s voice, once', async () => {
  const hear = () =>
    stack.request('/speech/lexicon/hear', {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${stack.adminToken}` },
      body: JSON.stringify({ rule: { spoken: 'sequel', locale: 'en' } }),
    });
  const first = await hear();
  expect(first.status).toBe(200);
  expect(first.headers.get('content-type')).toMatch(/audio\/mpeg/);
  expect(first.headers.get('x-speech-preview-cache')).toBe('miss');
  expect((await first.arrayBuffer()).byteLength).toBeGreaterThan(500);
  const second = await hear();
  expect(second.headers.get('x-speech-preview-cache')).toBe('hit');
  const generated = (await stack.control<any>('GET', '/requests')).requests.filter((entry: any) => entry.path === '/api/v1/tts/generate');
  expect(generated).toHaveLength(1);
  expect(generated[0].body).toMatchObject({ text: 'sequel', voice_id: 'en-female-1' });

  const refused = await stack.admin('POST', '/speech/lexicon/hear', { rule: { spoken: '' } });
  expect(refused.status).toBe(400);
});
