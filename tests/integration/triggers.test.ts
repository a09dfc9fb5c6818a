import { blocks, startStack, waitFor, type Stack } from './harness';
import { adminNarration, sleep, submissionsFor } from './narration-helpers';

/**
 * Every way Strapi publishes or saves content narrates it exactly once. A matrix over the entry
 * points (Content Manager, bulk, all locales, REST, the Document Service from code) x the kinds
 * of type (draft & publish, without it, single type) x one or two locales: after each action the
 * emulator saw exactly the expected submissions and the rows are in the expected states.
 */

const ARTICLE = 'api::article.article'; // collection, draft & publish, localized
const NOTE = 'api::note.note'; // collection, no draft & publish, localized
const HOMEPAGE = 'api::homepage.homepage'; // single type, draft & publish, localized
jest.setTimeout(300_000);

let stack: Stack;
let token: string;

beforeAll(async () => {
  stack = await startStack({ env: { PLAYGROUND_CODE_ACTIONS: 'true' } });
  const created = await stack.admin('POST', '/admin/api-tokens', { name: 'site', type: 'full-access', lifespan: null });
  token = created.body.data.accessKey;
});

afterAll(async () => {
  await stack?.stop();
});

async function json(method: string, pathname: string, body: unknown, headers: Record<string, string>) {
  const response = await stack.request(pathname, {
    method,
    headers: { 'content-type': 'application/json', ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  const parsed = text ? JSON.parse(text) : null;
  if (response.status >= 300) throw new Error(`${method} ${pathname}: ${response.status} ${text}`);
  return parsed;
}

/** The Content Manager's own routes, as the admin panel calls them. */
const cm = {
  collection: (uid: string) => `/content-manager/collection-types/${uid}`,
  single: (uid: string) => `/content-manager/single-types/${uid}`,
  call: (method: string, pathname: string, body?: unknown) =>
    json(method, pathname, method === 'GET' ? undefined : (body ?? {}), { authorization: `Bearer ${stack.adminToken}` }),
};
const rest = (method: string, pathname: string, body?: unknown) =>
  json(method, `/api${pathname}`, body, { authorization: `Bearer ${token}` });
/** The Document Service called from code (playground fixture route). */
const code = (uid: string, action: string, params: Record<string, unknown>) =>
  json('POST', '/api/code-actions', { uid, action, params }, {});

type Expected = Record<string, { submissions: number; status: string } | null>;

/**
 * Waits until nothing of this document is on its way, then checks every locale: the number of
 * submissions the emulator saw and the row's state (null: no row). A short quiet period after
 * settling catches a late or duplicate submission.
 */
async function expectNarrations(uid: string, documentId: string, expected: Expected) {
  const settled = async () => {
    const { data } = await adminNarration(stack, uid, documentId);
    return data.every((row) => ['completed', 'failed', 'cancelled'].includes(row.status)) ? data : null;
  };
  await waitFor(settled, { timeoutMs: 45_000, what: `narrations of ${documentId} to settle` });
  await sleep(1_000);
  const rows = (await waitFor(settled, { timeoutMs: 45_000 })) as Array<{ locale: string | null; status: string }>;
  const seen: Expected = {};
  for (const locale of Object.keys(expected)) {
    const row = rows.find((candidate) => (candidate.locale ?? '') === locale);
    const articleId = locale ? `${documentId}-${locale}` : documentId;
    const submissions = (await submissionsFor(stack, articleId)).length;
    seen[locale] = row ? { submissions, status: row.status } : submissions ? { submissions, status: 'deleted' } : null;
  }
  expect(seen).toEqual(expected);
}

const done = (submissions: number) => ({ submissions, status: 'completed' });
/** Narrated `submissions` times, then its row removed with the document (or locale). */
const gone = (submissions: number) => ({ submissions, status: 'deleted' });

describe('a type with draft & publish (articles)', () => {
  const article = (title: string, text: string) => ({ title, summary: `${title}.`, body: blocks(text) });

  it('Content Manager: a draft is not narrated; publishing one locale narrates that locale once', async () => {
    const { data } = await cm.call('POST', `${cm.collection(ARTICLE)}?locale=en`, article('CM one', 'Published in the editor.'));
    await expectNarrations(ARTICLE, data.documentId, { en: null });
    await cm.call('POST', `${cm.collection(ARTICLE)}/${data.documentId}/actions/publish?locale=en`);
    await expectNarrations(ARTICLE, data.documentId, { en: done(1), ar: null });
    // Publishing again with the same text pays nothing.
    await cm.call('POST', `${cm.collection(ARTICLE)}/${data.documentId}/actions/publish?locale=en`);
    await expectNarrations(ARTICLE, data.documentId, { en: done(1), ar: null });
  });

  it('Content Manager: two locales, each published, each narrated once', async () => {
    const { data } = await cm.call('POST', `${cm.collection(ARTICLE)}?locale=en`, article('CM two', 'English text.'));
    await cm.call('PUT', `${cm.collection(ARTICLE)}/${data.documentId}?locale=ar`, article('مقال', 'نص عربي قصير.'));
    await cm.call('POST', `${cm.collection(ARTICLE)}/${data.documentId}/actions/publish?locale=en`);
    await cm.call('POST', `${cm.collection(ARTICLE)}/${data.documentId}/actions/publish?locale=ar`);
    await expectNarrations(ARTICLE, data.documentId, { en: done(1), ar: done(1) });
  });

  it('bulk publish (one locale) and "publish all locales" narrate each document and locale once', async () => {
    const one = (await cm.call('POST', `${cm.collection(ARTICLE)}?locale=en`, article('Bulk one', 'First of the bulk.'))).data.documentId;
    const two = (await cm.call('POST', `${cm.collection(ARTICLE)}?locale=en`, article('Bulk two', 'Second of the bulk.'))).data.documentId;
    await cm.call('POST', `${cm.collection(ARTICLE)}/actions/bulkPublish?locale=en`, { documentIds: [one, two] });
    await expectNarrations(ARTICLE, one, { en: done(1) });
    await expectNarrations(ARTICLE, two, { en: done(1) });

    const both = (await cm.call('POST', `${cm.collection(ARTICLE)}?locale=en`, article('All locales', 'In English.'))).data.documentId;
    await cm.call('PUT', `${cm.collection(ARTICLE)}/${both}?locale=ar`, article('كل اللغات', 'بالعربية.'));
    await cm.call('POST', `${cm.collection(ARTICLE)}/actions/bulkPublish`, { documentIds: [both], locale: ['en', 'ar'] });
    await expectNarrations(ARTICLE, both, { en: done(1), ar: done(1) });
  });

  it('REST: create-and-publish narrates once, a draft not; an update of the published entry narrates the change once', async () => {
    const created = await rest('POST', '/articles?locale=en', { data: article('REST one', 'Created through REST.') });
    await expectNarrations(ARTICLE, created.data.documentId, { en: done(1) });
    const draft = await rest('POST', '/articles?locale=en&status=draft', { data: article('REST draft', 'Only a draft.') });
    await expectNarrations(ARTICLE, draft.data.documentId, { en: null });

    await rest('PUT', `/articles/${created.data.documentId}?locale=en`, { data: { summary: 'A changed summary.' } });
    await expectNarrations(ARTICLE, created.data.documentId, { en: done(2) });
    const [, second] = await submissionsFor(stack, `${created.data.documentId}-en`);
    expect(second.body.postData.regenerate).toBe(true);
    // The same data again: nothing to pay for.
    await rest('PUT', `/articles/${created.data.documentId}?locale=en`, { data: { summary: 'A changed summary.' } });
    await expectNarrations(ARTICLE, created.data.documentId, { en: done(2) });
    // A second locale added through REST, published: narrated once, the first untouched.
    await rest('PUT', `/articles/${created.data.documentId}?locale=ar`, { data: article('عبر REST', 'أُنشئ عبر الواجهة.') });
    await expectNarrations(ARTICLE, created.data.documentId, { en: done(2), ar: done(1) });
  });

  it('from code: documents().create() makes a draft (not narrated), documents().publish() narrates it once per locale', async () => {
    const created = (await code(ARTICLE, 'create', { locale: 'en', data: article('From code', 'Written by a script.') })).result;
    await code(ARTICLE, 'update', { documentId: created.documentId, locale: 'ar', data: article('من الشيفرة', 'كتبه برنامج.') });
    await expectNarrations(ARTICLE, created.documentId, { en: null, ar: null });
    await code(ARTICLE, 'publish', { documentId: created.documentId, locale: 'en' });
    await expectNarrations(ARTICLE, created.documentId, { en: done(1), ar: null });
    await code(ARTICLE, 'publish', { documentId: created.documentId, locale: '*' });
    await expectNarrations(ARTICLE, created.documentId, { en: done(1), ar: done(1) });
  });

  it('discard draft changes nothing; unpublish one locale hides it; delete one locale removes it; delete removes the rest', async () => {
    const { data } = await cm.call('POST', `${cm.collection(ARTICLE)}?locale=en`, article('Lifecycle', 'Before any change.'));
    const id = data.documentId;
    await cm.call('PUT', `${cm.collection(ARTICLE)}/${id}?locale=ar`, article('دورة حياة', 'قبل أي تغيير.'));
    await cm.call('POST', `${cm.collection(ARTICLE)}/actions/bulkPublish`, { documentIds: [id], locale: ['en', 'ar'] });
    await expectNarrations(ARTICLE, id, { en: done(1), ar: done(1) });

    await cm.call('PUT', `${cm.collection(ARTICLE)}/${id}?locale=en`, article('Lifecycle', 'A draft change, then discarded.'));
    await cm.call('POST', `${cm.collection(ARTICLE)}/${id}/actions/discard?locale=en`);
    await expectNarrations(ARTICLE, id, { en: done(1), ar: done(1) });

    await cm.call('POST', `${cm.collection(ARTICLE)}/${id}/actions/unpublish?locale=ar`);
    await expectNarrations(ARTICLE, id, { en: done(1), ar: done(1) });
    expect((await stack.request(`/api/speech/narrations/${id}-ar`)).status).toBe(404);
    expect((await stack.request(`/api/speech/narrations/${id}-en`)).status).toBe(200);

    await cm.call('DELETE', `${cm.collection(ARTICLE)}/${id}?locale=ar`);
    await expectNarrations(ARTICLE, id, { en: done(1), ar: gone(1) });
    await cm.call('DELETE', `${cm.collection(ARTICLE)}/${id}?locale=en`);
    await expectNarrations(ARTICLE, id, { en: gone(1), ar: gone(1) });
  });
});

describe('a type without draft & publish (notes): what is saved is narrated', () => {
  const note = (title: string, text: string) => ({ title, text });

  it('Content Manager: create narrates once, a changed save once more, an unchanged save not; a second locale once', async () => {
    const { data } = await cm.call('POST', `${cm.collection(NOTE)}?locale=en`, note('Note', 'Saved in the editor.'));
    await expectNarrations(NOTE, data.documentId, { en: done(1) });
    await cm.call('PUT', `${cm.collection(NOTE)}/${data.documentId}?locale=en`, note('Note', 'Changed in the editor.'));
    await expectNarrations(NOTE, data.documentId, { en: done(2) });
    await cm.call('PUT', `${cm.collection(NOTE)}/${data.documentId}?locale=en`, note('Note', 'Changed in the editor.'));
    await cm.call('PUT', `${cm.collection(NOTE)}/${data.documentId}?locale=ar`, note('ملاحظة', 'حُفظت في المحرر.'));
    await expectNarrations(NOTE, data.documentId, { en: done(2), ar: done(1) });
  });

  it('REST and code: each save narrates the change once; deleting one locale removes only it', async () => {
    const created = await rest('POST', '/notes?locale=en', { data: note('REST note', 'Created through REST.') });
    const id = created.data.documentId;
    await expectNarrations(NOTE, id, { en: done(1) });
    await rest('PUT', `/notes/${id}?locale=en`, { data: { text: 'Changed through REST.' } });
    await code(NOTE, 'update', { documentId: id, locale: 'ar', data: note('من الشيفرة', 'حفظه برنامج.') });
    await expectNarrations(NOTE, id, { en: done(2), ar: done(1) });
    await code(NOTE, 'update', { documentId: id, locale: 'en', data: { text: 'Changed by a script.' } });
    await expectNarrations(NOTE, id, { en: done(3), ar: done(1) });

    await cm.call('DELETE', `${cm.collection(NOTE)}/${id}?locale=en`);
    await expectNarrations(NOTE, id, { en: gone(3), ar: done(1) });
  });

  it('from code: documents().create() narrates once', async () => {
    const created = (await code(NOTE, 'create', { locale: 'en', data: note('Code note', 'Created by a script.') })).result;
    await expectNarrations(NOTE, created.documentId, { en: done(1), ar: null });
  });
});

describe('a single type (homepage), narrated like a collection type', () => {
  let id: string;

  it('Content Manager: saving is not narrating; publishing each locale narrates it once, under a stable articleId', async () => {
    const saved = await cm.call('PUT', `${cm.single(HOMEPAGE)}?locale=en`, { title: 'Welcome', intro: 'The homepage introduction.' });
    id = saved.data.documentId;
    await expectNarrations(HOMEPAGE, id, { en: null });
    await cm.call('POST', `${cm.single(HOMEPAGE)}/actions/publish?locale=en`);
    await cm.call('PUT', `${cm.single(HOMEPAGE)}?locale=ar`, { title: 'أهلًا', intro: 'مقدمة الصفحة الرئيسية.' });
    await cm.call('POST', `${cm.single(HOMEPAGE)}/actions/publish?locale=ar`);
    await expectNarrations(HOMEPAGE, id, { en: done(1), ar: done(1) });
    // Republishing keeps the document, so the articleId stays the same.
    await cm.call('POST', `${cm.single(HOMEPAGE)}/actions/publish?locale=en`);
    const again = await cm.call('GET', `${cm.single(HOMEPAGE)}?locale=en`);
    expect(again.data.documentId).toBe(id);
    await expectNarrations(HOMEPAGE, id, { en: done(1), ar: done(1) });
  });

  it('REST and code: an update of the published single type narrates the change once', async () => {
    await rest('PUT', '/homepage?locale=en', { data: { intro: 'A new introduction, through REST.' } });
    await expectNarrations(HOMEPAGE, id, { en: done(2), ar: done(1) });
    await code(HOMEPAGE, 'update', { documentId: id, locale: 'ar', data: { intro: 'مقدمة جديدة من برنامج.' } });
    await expectNarrations(HOMEPAGE, id, { en: done(2), ar: done(1) });
    await code(HOMEPAGE, 'publish', { documentId: id, locale: 'ar' });
    await expectNarrations(HOMEPAGE, id, { en: done(2), ar: done(2) });
  });

  it('unpublish hides a locale, delete of one locale removes it', async () => {
    await cm.call('POST', `${cm.single(HOMEPAGE)}/actions/unpublish?locale=en`);
    expect((await stack.request(`/api/speech/narrations/${id}-en`, { headers: { authorization: `Bearer ${token}` } })).status).toBe(404);
    await cm.call('DELETE', `${cm.single(HOMEPAGE)}?locale=ar`);
    await expectNarrations(HOMEPAGE, id, { en: done(2), ar: gone(2) });
  });
});

describe('a trigger that can never fire', () => {
  it('is refused in the settings with a 400 naming the type, and changes nothing', async () => {
    const answer = await stack.admin('PUT', '/speech/settings', {
      contentTypes: { [NOTE]: { titleField: 'title', textFields: ['text'], trigger: 'publish' } },
    });
    expect(answer.status).toBe(400);
    expect(answer.body.error.message).toContain(`${NOTE} has no draft & publish`);
    const { body } = await stack.admin('GET', '/speech/settings');
    expect(body.settings.contentTypes[NOTE].trigger).toBe('save');
  });
});
