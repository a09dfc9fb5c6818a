import http from 'node:http';
import path from 'node:path';
import Database from 'better-sqlite3';
import { blocks, contentManager, createAdmin, roleByCode, setArticleRolePermissions, startStack, waitFor, type Stack } from './harness';
import { emulatorRequests, narrationRow, sleep, submissionsFor, waitForStatus } from './narration-helpers';

/**
 * The plugin inside a real Strapi estate: every route answers only to those Strapi lets see the
 * document. Admin routes follow the Content Manager's permissions ("is creator" included), public
 * routes follow the content API's (Public role, API tokens), GraphQL shows narrations and never
 * the plugin's tables, and what the content API hides is never narrated.
 */

const ARTICLE = 'api::article.article';
const PAGE = 'api::page.page';
jest.setTimeout(240_000);

/** Every public narration route of an article, after `/api/speech/narrations/:articleId`. */
const PUBLIC_SUFFIXES = ['', '/audio.mp3', '/subtitles.srt', '/subtitles.vtt', '/chapters.vtt'];

let stack: Stack;
let articles: ReturnType<typeof contentManager>;
let pages: ReturnType<typeof contentManager>;

type AdminUser = Awaited<ReturnType<typeof createAdmin>>;

async function anonymous(pathname: string) {
  const response = await stack.request(pathname, { redirect: 'manual' });
  return { status: response.status, text: await response.text(), location: response.headers.get('location') };
}

async function graphql(query: string, token?: string) {
  const response = await stack.request('/graphql', {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify({ query }),
  });
  return { status: response.status, body: (await response.json()) as any };
}

let author: AdminUser;
let editor: AdminUser;
/** Created by the super admin: the author did not create it. */
let othersArticle: string;
/** Created by the author. */
let ownArticle: string;

beforeAll(async () => {
  stack = await startStack({ graphql: true, env: { GRAPHQL_INTROSPECTION: 'true' } });
  articles = contentManager(stack, ARTICLE);
  pages = contentManager(stack, PAGE);

  const authorRole = await roleByCode(stack, 'strapi-author');
  const editorRole = await roleByCode(stack, 'strapi-editor');
  await setArticleRolePermissions(stack, authorRole, ['admin::is-creator']);
  await setArticleRolePermissions(stack, editorRole, []);
  author = await createAdmin(stack, 'author@example.com', authorRole);
  editor = await createAdmin(stack, 'editor2@example.com', editorRole);

  othersArticle = (await articles.create({ title: 'Someone else', summary: 'Not yours.', body: blocks('First.', 'Second.') }, 'en'))
    .documentId;
  const own = await author.call('POST', `/content-manager/collection-types/${ARTICLE}?locale=en`, {
    title: 'My own',
    summary: 'Mine.',
    body: blocks('Mine too.'),
  });
  if (own.status !== 201 && own.status !== 200) throw new Error(`author create: ${own.status} ${JSON.stringify(own.body)}`);
  ownArticle = own.body.data.documentId;
});

afterAll(async () => {
  await stack?.stop();
});

describe('admin routes follow the Content Manager permissions', () => {
  const target = (documentId: string) => ({ contentType: ARTICLE, documentId, locale: 'en' });

  it("refuses an Author everything about another admin's article, and nothing reaches the service", async () => {
    // The voice list (read for the estimate of the author's own article) tells nothing about any article.
    const articleRequests = async () =>
      (await stack.control<any>('GET', '/requests')).requests.filter((entry: any) => entry.path !== '/api/v1/voices').length;
    const requestsBefore = await articleRequests();
    const other = target(othersArticle);

    expect((await author.call('POST', '/speech/narrations/paragraphs', other)).status).toBe(403);
    expect((await author.call('POST', '/speech/narrations/estimate', other)).status).toBe(403);
    expect((await author.call('GET', `/speech/narrations/document/${othersArticle}?contentType=${ARTICLE}&locale=en`)).status).toBe(200);
    expect((await author.call('GET', `/speech/narrations/document/${othersArticle}?contentType=${ARTICLE}&locale=en`)).body.data).toEqual(
      []
    );
    const refused = await author.call('POST', '/speech/narrations/narrate', other);
    expect(refused.status).toBe(403);
    // The refusal says why, not Strapi's bare "Forbidden".
    expect(refused.body.error.message).toMatch(/^You may not (read|narrate) this document/);
    expect((await author.call('POST', '/speech/narrations/regenerate', other)).status).toBe(403);
    expect((await author.call('POST', '/speech/narrations/listen', { ...other, index: 0 })).status).toBe(403);
    expect((await author.call('PUT', '/speech/narrations/voice', { ...other, voiceId: 'en-male-1' })).status).toBe(403);
    expect((await author.call('POST', '/speech/narrations/cancel', other)).status).toBe(403);

    const many = { contentType: ARTICLE, documentIds: [othersArticle, ownArticle], locale: 'en' };
    const estimates = await author.call('POST', '/speech/narrations/estimate-many', many);
    expect(estimates.status).toBe(200);
    expect(estimates.body.items.map((item: any) => item.documentId)).toEqual([ownArticle]);
    expect(estimates.body.refused).toEqual([othersArticle]);

    // Nothing was read for the service, nothing sent, no override stored for the other article.
    expect(await articleRequests()).toBe(requestsBefore);
    expect((await stack.admin('POST', '/speech/narrations/estimate', other)).body.voiceOverride).toBeNull();
  });

  it('lets the Author work on their own article, and skips the other one in bulk', async () => {
    const own = target(ownArticle);
    const paragraphs = await author.call('POST', '/speech/narrations/paragraphs', own);
    expect(paragraphs.status).toBe(200);
    expect(paragraphs.body.paragraphs.map((p: any) => p.text)).toContain('Mine too.');
    expect((await author.call('POST', '/speech/narrations/estimate', own)).status).toBe(200);
    const listened = await author.call('POST', '/speech/narrations/listen', { ...own, index: 1 });
    expect(listened.status).toBe(200);

    // Publishing is the author's to do; narrate-many narrates their own article only.
    expect(
      (await author.call('POST', `/content-manager/collection-types/${ARTICLE}/${ownArticle}/actions/publish?locale=en`, {})).status
    ).toBe(200);
    await articles.publish(othersArticle, 'en');
    await waitForStatus(stack, ARTICLE, ownArticle, 'completed', 'en');
    await waitForStatus(stack, ARTICLE, othersArticle, 'completed', 'en');

    const statuses = await author.call('POST', '/speech/narrations/statuses', {
      contentType: ARTICLE,
      documentIds: [ownArticle, othersArticle],
    });
    expect(statuses.status).toBe(200);
    expect(statuses.body.data.map((row: any) => row.documentId)).toEqual([ownArticle]);

    const before = (await emulatorRequests(stack)).length;
    const many = await author.call('POST', '/speech/narrations/narrate-many', {
      contentType: ARTICLE,
      documentIds: [othersArticle, ownArticle],
      locale: 'en',
    });
    expect(many.status).toBe(200);
    expect(many.body.refused).toEqual([othersArticle]);
    expect(many.body.results.map((result: any) => result.articleId)).toEqual([`${ownArticle}-en`]);

    const regenerated = await author.call('POST', '/speech/narrations/regenerate', target(ownArticle));
    expect(regenerated.status).toBe(200);
    expect(regenerated.body.queued).toBe(true);
    await waitFor(async () => (await submissionsFor(stack, `${ownArticle}-en`)).length === 2, { what: 'the regenerate submission' });
    expect((await submissionsFor(stack, `${othersArticle}-en`)).length).toBe(1);
    expect((await emulatorRequests(stack)).length).toBe(before + 1);
    await waitForStatus(stack, ARTICLE, ownArticle, 'completed', 'en');
  });

  it("refuses an Author on another admin's narrated article: nothing submitted again, cancelled or changed", async () => {
    const other = target(othersArticle);
    const rowBefore = await narrationRow(stack, ARTICLE, othersArticle, 'en');
    expect(rowBefore.status).toBe('completed');
    const submissionsBefore = (await submissionsFor(stack, `${othersArticle}-en`)).length;
    const generationsBefore = (await emulatorRequests(stack, '/api/v1/tts/generate')).length;

    for (const [method, pathname, body] of [
      ['POST', '/speech/narrations/narrate', other],
      ['POST', '/speech/narrations/regenerate', other],
      ['POST', '/speech/narrations/cancel', other],
      ['PUT', '/speech/narrations/voice', { ...other, voiceId: 'en-male-1' }],
      ['POST', '/speech/narrations/listen', { ...other, index: 0 }],
      ['POST', '/speech/narrations/paragraphs', other],
      ['POST', '/speech/narrations/passages', other],
      ['PUT', '/speech/narrations/passages/voice', { ...other, passageKey: '0123456789abcdef', voiceId: 'en-male-1' }],
      ['POST', '/speech/narrations/estimate', other],
    ] as const) {
      const answer = await author.call(method, pathname, body);
      expect([pathname, answer.status]).toEqual([pathname, 403]);
      expect(JSON.stringify(answer.body)).not.toMatch(/Someone else|Not yours|Second/);
    }

    await sleep(1_000); // a wrongly queued regenerate would be submitted by the next worker tick
    expect(await narrationRow(stack, ARTICLE, othersArticle, 'en')).toEqual(rowBefore);
    expect(await submissionsFor(stack, `${othersArticle}-en`)).toHaveLength(submissionsBefore);
    expect(await emulatorRequests(stack, '/api/v1/tts/generate')).toHaveLength(generationsBefore);
    expect((await stack.admin('POST', '/speech/narrations/estimate', other)).body.voiceOverride).toBeNull();
  });

  it('lists for an Author only their own entries the lexicon would change, and only their cost', async () => {
    // One rule for each article's text: both would change.
    const saved = await stack.admin('PUT', '/speech/settings', {
      lexicon: [
        { term: 'Second', spoken: 'Zweite' },
        { term: 'Mine', spoken: 'Meins' },
      ],
    });
    expect(saved.status).toBe(200);
    try {
      const query = { contentType: ARTICLE, locale: 'en' };
      const requestsBefore = (await stack.control<any>('GET', '/requests')).requests.length;
      const everyone = await editor.call('POST', '/speech/lexicon/affected', query);
      expect(everyone.status).toBe(200);
      expect(everyone.body.items.map((item: any) => item.documentId).sort()).toEqual([ownArticle, othersArticle].sort());

      const own = await author.call('POST', '/speech/lexicon/affected', query);
      expect(own.status).toBe(200);
      expect(own.body.items.map((item: any) => item.documentId)).toEqual([ownArticle]);
      const ownItem = everyone.body.items.find((item: any) => item.documentId === ownArticle);
      expect(own.body.totalCredits).toBe(ownItem.credits);
      expect(JSON.stringify(own.body)).not.toContain(othersArticle);
      expect(JSON.stringify(own.body)).not.toContain('Someone else');
      // Nothing is submitted to find out.
      expect((await stack.control<any>('GET', '/requests')).requests.length).toBe(requestsBefore);
    } finally {
      expect((await stack.admin('PUT', '/speech/settings', { lexicon: [] })).status).toBe(200);
    }
  });

  it('lets an Editor (no conditions) do it all on any article', async () => {
    const other = target(othersArticle);
    expect((await editor.call('POST', '/speech/narrations/paragraphs', other)).status).toBe(200);
    expect((await editor.call('POST', '/speech/narrations/estimate', other)).status).toBe(200);
    const view = await editor.call('GET', `/speech/narrations/document/${othersArticle}?contentType=${ARTICLE}&locale=en`);
    expect(view.body.data).toHaveLength(1);
    expect((await editor.call('PUT', '/speech/narrations/voice', { ...other, voiceId: 'en-male-1' })).status).toBe(200);
    expect((await editor.call('POST', '/speech/narrations/listen', { ...other, index: 0 })).status).toBe(200);
    const statuses = await editor.call('POST', '/speech/narrations/statuses', {
      contentType: ARTICLE,
      documentIds: [ownArticle, othersArticle],
    });
    expect(statuses.body.data.map((row: any) => row.documentId).sort()).toEqual([ownArticle, othersArticle].sort());
    expect((await editor.call('PUT', '/speech/narrations/voice', { ...other, voiceId: null })).status).toBe(200);
  });

  it('holds a role limited to Arabic to Arabic on every route that takes a locale: null, missing and en are refused', async () => {
    const role = await stack.admin('POST', '/admin/roles', { name: 'Arabic desk', description: 'Arabic articles only' });
    expect([200, 201]).toContain(role.status);
    const permissions = [
      ...['read', 'create', 'update', 'publish'].map((action) => ({
        action: `plugin::content-manager.explorer.${action}`,
        subject: ARTICLE,
        properties: action === 'publish' ? { locales: ['ar'] } : { fields: ['title', 'summary', 'body'], locales: ['ar'] },
        conditions: [],
      })),
      { action: 'plugin::speech.narrate', subject: null, properties: {}, conditions: [] },
    ];
    expect((await stack.admin('PUT', `/admin/roles/${role.body.data.id}/permissions`, { permissions })).status).toBe(200);
    const arabicDesk = await createAdmin(stack, 'arabic-desk@example.com', role.body.data.id);

    // Both locales live and narrated, so that a route reaching English would have something to spend on.
    const { documentId } = await articles.create(
      { title: 'English draft title', summary: 'In English.', body: blocks('English text.') },
      'en'
    );
    await articles.update(documentId, { title: 'عنوان عربي', summary: 'بالعربية.', body: blocks('نص عربي.') }, 'ar');
    await articles.publish(documentId, 'en');
    await articles.publish(documentId, 'ar');
    await waitForStatus(stack, ARTICLE, documentId, 'completed', 'en');
    await waitForStatus(stack, ARTICLE, documentId, 'completed', 'ar');
    const englishRow = await narrationRow(stack, ARTICLE, documentId, 'en');
    const requestsBefore = (await stack.control<any>('GET', '/requests')).requests.length;

    const single = (locale: { locale?: string | null }) =>
      [
        ['POST', '/speech/narrations/paragraphs', { contentType: ARTICLE, documentId, ...locale }],
        ['POST', '/speech/narrations/passages', { contentType: ARTICLE, documentId, ...locale }],
        [
          'PUT',
          '/speech/narrations/passages/voice',
          { contentType: ARTICLE, documentId, ...locale, passageKey: '0123456789abcdef', voiceId: 'en-male-1' },
        ],
        ['POST', '/speech/narrations/estimate', { contentType: ARTICLE, documentId, ...locale }],
        ['POST', '/speech/narrations/narrate', { contentType: ARTICLE, documentId, ...locale }],
        ['POST', '/speech/narrations/regenerate', { contentType: ARTICLE, documentId, ...locale }],
        ['POST', '/speech/narrations/listen', { contentType: ARTICLE, documentId, ...locale, index: 0 }],
        ['PUT', '/speech/narrations/voice', { contentType: ARTICLE, documentId, ...locale, voiceId: 'en-male-1' }],
        ['POST', '/speech/narrations/cancel', { contentType: ARTICLE, documentId, ...locale }],
      ] as const;
    const query = (locale: { locale?: string | null }) => (locale.locale ? `&locale=${locale.locale}` : '');
    const many = (locale: { locale?: string | null }) => ({ contentType: ARTICLE, documentIds: [documentId], ...locale });
    const refusedLocales = [{ locale: null }, {}, { locale: 'en' }];

    for (const locale of refusedLocales) {
      const what = JSON.stringify(locale);
      for (const [method, pathname, body] of single(locale)) {
        const answer = await arabicDesk.call(method, pathname, body);
        expect([what, pathname, answer.status]).toEqual([what, pathname, 403]);
      }
      const insights = await arabicDesk.call('GET', `/speech/insights/document/${documentId}?contentType=${ARTICLE}${query(locale)}`);
      expect([what, insights.status]).toEqual([what, 403]);
      for (const pathname of ['/speech/narrations/estimate-many', '/speech/narrations/narrate-many']) {
        const answer = await arabicDesk.call('POST', pathname, many(locale));
        expect([what, pathname, answer.status, answer.body.refused]).toEqual([what, pathname, 200, [documentId]]);
        expect(JSON.stringify(answer.body)).not.toContain('English draft title');
      }
      const affected = await arabicDesk.call('POST', '/speech/lexicon/affected', { contentType: ARTICLE, ...locale });
      expect(JSON.stringify(affected.body)).not.toContain(documentId);
      const view = await arabicDesk.call('GET', `/speech/narrations/document/${documentId}?contentType=${ARTICLE}${query(locale)}`);
      expect(view.body.data.map((row: any) => row.locale)).not.toContain('en');
    }
    // The English narration's versions (their costs and checks) are not the Arabic desk's to read; its own are.
    const englishVersions = await arabicDesk.call('GET', `/speech/narrations/${documentId}-en/versions`);
    expect([englishVersions.status, JSON.stringify(englishVersions.body)]).toEqual([404, expect.not.stringContaining('credits')]);
    expect((await arabicDesk.call('GET', `/speech/narrations/${documentId}-ar/versions`)).body.data).toHaveLength(1);
    expect((await stack.admin('GET', `/speech/narrations/${documentId}-en/versions`)).body.data).toHaveLength(1);

    // Nothing sent to the service, nothing queued, cancelled or changed in English.
    await sleep(1_000); // a wrongly queued narration would be submitted by the next worker tick
    expect((await stack.control<any>('GET', '/requests')).requests.length).toBe(requestsBefore);
    expect(await narrationRow(stack, ARTICLE, documentId, 'en')).toEqual(englishRow);
    expect(
      (await stack.admin('POST', '/speech/narrations/estimate', { contentType: ARTICLE, documentId, locale: 'en' })).body.voiceOverride
    ).toBeNull();

    // Arabic passes on every one of them (a passage voice on a type without passage voices, past the permission, is refused as input).
    const arabic = { locale: 'ar' };
    for (const [method, pathname, body] of single(arabic).filter(([, pathname]) => !pathname.endsWith('/cancel'))) {
      const answer = await arabicDesk.call(method, pathname, body);
      const passed = pathname.endsWith('/passages/voice') ? 400 : 200;
      expect([pathname, answer.status]).toEqual([pathname, passed]);
      if (passed === 400) expect(answer.body.error.message).toBe('This content type does not read passages in voices of their own.');
    }
    expect((await arabicDesk.call('GET', `/speech/insights/document/${documentId}?contentType=${ARTICLE}&locale=ar`)).status).toBe(200);
    const estimates = await arabicDesk.call('POST', '/speech/narrations/estimate-many', many(arabic));
    expect(estimates.body.refused).toEqual([]);
    expect(estimates.body.items.map((item: any) => item.documentId)).toEqual([documentId]);
    const narrated = await arabicDesk.call('POST', '/speech/narrations/narrate-many', many(arabic));
    expect(narrated.body.refused).toEqual([]);
    const view = await arabicDesk.call('GET', `/speech/narrations/document/${documentId}?contentType=${ARTICLE}&locale=ar`);
    expect(view.body.data.map((row: any) => row.locale)).toEqual(['ar']);
    expect((await arabicDesk.call('POST', '/speech/narrations/cancel', { contentType: ARTICLE, documentId, locale: 'ar' })).status).toBe(
      200
    );
    // What Arabic sent to the service was for the Arabic narration alone.
    const sent = (await stack.control<any>('GET', '/requests')).requests.slice(requestsBefore);
    expect(sent.length).toBeGreaterThan(0);
    for (const entry of sent) expect(JSON.stringify(entry.body ?? {})).not.toContain(`${documentId}-en`);
    expect(await narrationRow(stack, ARTICLE, documentId, 'en')).toEqual(englishRow);
  });

  it('answers 404 for a document that does not exist, before reading anything', async () => {
    expect((await editor.call('POST', '/speech/narrations/narrate', target('doesnotexist000000000000'))).status).toBe(404);
  });
});

describe('public routes answer like the content API of the narrated type', () => {
  let pageId: string;

  beforeAll(async () => {
    pageId = (await pages.create({ title: 'Members only', content: '## Members section\n\nA page the Public role may not read.' }))
      .documentId;
    await waitForStatus(stack, PAGE, pageId, 'completed');
  });

  it('serves a published article of a public type to anyone', async () => {
    const json = await anonymous(`/api/speech/narrations/${othersArticle}-en`);
    expect(json.status).toBe(200);
    expect(JSON.parse(json.text).status).toBe('ready');
    expect((await anonymous(`/api/speech/narrations/${othersArticle}-en/audio.mp3`)).status).toBe(302);
    expect((await anonymous(`/api/speech/narrations/${othersArticle}-en/subtitles.srt`)).status).toBe(302);
  });

  it('hides every narration of a type the Public role may not read: 404, as for one that does not exist', async () => {
    const requestsBefore = (await stack.control<any>('GET', '/requests')).requests.length;
    const row = await narrationRow(stack, PAGE, pageId);
    for (const suffix of PUBLIC_SUFFIXES) {
      const answer = await anonymous(`/api/speech/narrations/${pageId}${suffix}`);
      expect(answer.status).toBe(404);
      expect(answer.text).not.toContain('Members only');
    }
    expect((await anonymous(`/api/speech/narrations/nosuchdocument000000000${''}`)).status).toBe(404);
    // Refused, and nothing read from the service or changed on the narration.
    expect((await stack.control<any>('GET', '/requests')).requests.length).toBe(requestsBefore);
    expect(await narrationRow(stack, PAGE, pageId)).toEqual(row);
    // The content API itself refuses pages to the Public role.
    expect((await anonymous('/api/pages')).status).toBe(403);
  });

  it('serves the closed type to an API token that may read it', async () => {
    const created = await stack.admin('POST', '/admin/api-tokens', {
      name: 'pages reader',
      type: 'custom',
      lifespan: null,
      permissions: ['api::page.page.find', 'api::page.page.findOne'],
    });
    expect(created.status).toBe(201);
    const token = created.body.data.accessKey as string;
    const response = await stack.request(`/api/speech/narrations/${pageId}`, { headers: { authorization: `Bearer ${token}` } });
    expect(response.status).toBe(200);
    expect(response.headers.get('vary')).toMatch(/authorization/i);
    // The page has a heading: its chapters are there for whoever may read pages.
    const chapters = await stack.request(`/api/speech/narrations/${pageId}/chapters.vtt`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(chapters.status).toBe(200);
    expect(await chapters.text()).toContain('Members section');
    // A token without that permission gets the same 404 as anyone.
    const other = await stack.admin('POST', '/admin/api-tokens', {
      name: 'articles only',
      type: 'custom',
      lifespan: null,
      permissions: ['api::article.article.find'],
    });
    const refused = await stack.request(`/api/speech/narrations/${pageId}`, {
      headers: { authorization: `Bearer ${other.body.data.accessKey}` },
    });
    expect(refused.status).toBe(404);
    for (const suffix of PUBLIC_SUFFIXES.slice(1)) {
      const answer = await stack.request(`/api/speech/narrations/${pageId}${suffix}`, {
        headers: { authorization: `Bearer ${other.body.data.accessKey}` },
        redirect: 'manual',
      });
      expect([suffix, answer.status]).toEqual([suffix, 404]);
      expect(await answer.text()).not.toContain('Members');
    }
  });

  it('keeps a closed type closed to a conditional request carrying its real ETag, and out of the feeds even for a token that may read it', async () => {
    const token = async (name: string, permissions: string[]) =>
      (await stack.admin('POST', '/admin/api-tokens', { name, type: 'custom', lifespan: null, permissions })).body.data.accessKey as string;
    const reader = await token('pages reader, conditional', ['api::page.page.find', 'api::page.page.findOne']);
    const outsider = await token('articles only, conditional', ['api::article.article.find']);
    for (const suffix of PUBLIC_SUFFIXES) {
      const pathname = `/api/speech/narrations/${pageId}${suffix}`;
      const seen = await stack.request(pathname, { headers: { authorization: `Bearer ${reader}` }, redirect: 'manual' });
      expect([suffix, seen.status]).toEqual([suffix, suffix === '' || suffix === '/chapters.vtt' ? 200 : 302]);
      const etag = seen.headers.get('etag');
      expect(etag).toBeTruthy();
      // The reader's own tag gets its 304...
      const again = await stack.request(pathname, {
        headers: { authorization: `Bearer ${reader}`, 'if-none-match': etag! },
        redirect: 'manual',
      });
      expect([suffix, again.status]).toEqual([suffix, 304]);
      // ...but the same tag from anyone else is the 404 of a narration that does not exist, not a 304 that would tell it does.
      for (const authorization of [undefined, `Bearer ${outsider}`]) {
        const refused = await stack.request(pathname, {
          headers: { 'if-none-match': etag!, ...(authorization ? { authorization } : {}) },
          redirect: 'manual',
        });
        expect([suffix, authorization ?? 'anonymous', refused.status]).toEqual([suffix, authorization ?? 'anonymous', 404]);
        expect(refused.headers.get('etag')).toBeNull();
        expect(await refused.text()).not.toContain('Members');
      }
    }
    // A feed is one answer for everyone, so only the Public role opens it: a token that may read pages does not.
    for (const authorization of [undefined, `Bearer ${reader}`]) {
      const feed = await stack.request('/api/speech/feeds/pages.xml', { headers: authorization ? { authorization } : {} });
      expect(feed.status).toBe(404);
      expect(await feed.text()).not.toContain('Members');
    }
  });

  it('never serves a draft, an unpublished or a deleted document', async () => {
    const draft = (await articles.create({ title: 'Only a draft', summary: 'Draft.', body: blocks('Draft text.') }, 'en')).documentId;
    await stack.admin('POST', '/speech/narrations/narrate', { contentType: ARTICLE, documentId: draft, locale: 'en' });
    for (const suffix of PUBLIC_SUFFIXES) expect((await anonymous(`/api/speech/narrations/${draft}-en${suffix}`)).status).toBe(404);

    const heading = { type: 'heading', level: 2, children: [{ type: 'text', text: 'A chapter' }] };
    const unpublished = (
      await articles.create({ title: 'Soon unpublished', summary: 'Gone soon.', body: [heading, ...blocks('Was public.')] }, 'en')
    ).documentId;
    await articles.publish(unpublished, 'en');
    await waitForStatus(stack, ARTICLE, unpublished, 'completed', 'en');
    // Live, every public route answers (the files by redirect), chapters included.
    for (const suffix of PUBLIC_SUFFIXES) {
      expect([suffix, (await anonymous(`/api/speech/narrations/${unpublished}-en${suffix}`)).status]).toEqual([
        suffix,
        suffix === '' || suffix === '/chapters.vtt' ? 200 : 302,
      ]);
    }
    await articles.unpublish(unpublished, 'en');
    for (const suffix of PUBLIC_SUFFIXES) {
      const answer = await anonymous(`/api/speech/narrations/${unpublished}-en${suffix}`);
      expect([suffix, answer.status]).toEqual([suffix, 404]);
      expect(answer.text).not.toContain('A chapter');
    }
    await articles.remove(unpublished, 'en');
    for (const suffix of PUBLIC_SUFFIXES) expect((await anonymous(`/api/speech/narrations/${unpublished}-en${suffix}`)).status).toBe(404);
  });

  it("keeps the playground's Document Service test route shut unless a test opens it", async () => {
    const response = await stack.request('/api/code-actions', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ uid: ARTICLE, action: 'delete', params: { documentId: othersArticle } }),
    });
    expect(response.status).toBe(404);
    expect((await anonymous(`/api/speech/narrations/${othersArticle}-en`)).status).toBe(200);
  });

  it('builds URLs from the configured public URL, never from the Host header', async () => {
    const body = await new Promise<string>((resolve, reject) => {
      const url = new URL(`${stack.url}/api/speech/narrations/${othersArticle}-en`);
      const request = http.request(
        { host: url.hostname, port: url.port, path: url.pathname, headers: { host: 'evil.example', 'x-forwarded-host': 'evil.example' } },
        (response) => {
          let text = '';
          response.on('data', (chunk) => (text += chunk));
          response.on('end', () => resolve(text));
        }
      );
      request.on('error', reject);
      request.end();
    });
    const json = JSON.parse(body);
    expect(json.audioUrl.startsWith(`${stack.url}/api/speech/narrations/`)).toBe(true);
    expect(body).not.toContain('evil.example');
  });

  it('adds the narration to the REST answer with ?narration=true, under the same rule', async () => {
    const list = await stack.request('/api/articles?narration=true&locale=en');
    expect(list.status).toBe(200);
    const { data } = (await list.json()) as any;
    const entry = data.find((item: any) => item.documentId === othersArticle);
    expect(entry.narration.status).toBe('ready');
    expect(entry.narration.audioUrl).toBe(`${stack.url}/api/speech/narrations/${othersArticle}-en/audio.mp3`);
    expect(entry).not.toHaveProperty('internalNotes');
    // Without the parameter, nothing changes.
    const plain = (await (await stack.request('/api/articles?locale=en')).json()) as any;
    expect(plain.data[0]).not.toHaveProperty('narration');
  });
});

describe('GraphQL', () => {
  it("has no type, query or mutation of the plugin's internal tables", async () => {
    const { body } = await graphql('{ __schema { types { name } queryType { fields { name } } mutationType { fields { name } } } }');
    const names: string[] = body.data.__schema.types.map((type: any) => type.name);
    const fields: string[] = [...body.data.__schema.queryType.fields, ...body.data.__schema.mutationType.fields].map(
      (field: any) => field.name
    );
    expect(names).toContain('SpeechPublicNarration');
    // Shadow CRUD would name them SpeechNarration, SpeechLease, SpeechTranscription, SpeechVoiceOverride (+ Input, FiltersInput...).
    expect(names.filter((name) => /^Speech(Narration|Lease|Transcription|VoiceOverride)/.test(name))).toEqual([]);
    expect(names.filter((name) => /lease|transcription|voiceoverride/i.test(name))).toEqual([]);
    expect(fields.filter((name) => /narration|lease|transcription|voiceOverride/i.test(name))).toEqual([]);
  });

  it('answers an article narration for the public, and null where the caller may not see it', async () => {
    const { body } = await graphql(
      '{ articles(locale: "en") { documentId narration { status audioUrl vttUrl durationSeconds voice locale } } }'
    );
    expect(body.errors).toBeUndefined();
    const entry = body.data.articles.find((item: any) => item.documentId === othersArticle);
    expect(entry.narration).toMatchObject({ status: 'ready', locale: 'en', voice: 'en-female-1' });
    expect(entry.narration.vttUrl).toBe(`${stack.url}/api/speech/narrations/${othersArticle}-en/subtitles.vtt`);
    // The end of the last cue of the stored SRT: the emulator speaks two short paragraphs and a title.
    expect(entry.narration.durationSeconds).toBeGreaterThan(1);
    expect(entry.narration.durationSeconds).toBeLessThan(60);

    const draft = (await articles.create({ title: 'GraphQL draft', summary: 'Draft.', body: blocks('Draft.') }, 'en')).documentId;
    const token = (await stack.admin('POST', '/admin/api-tokens', { name: 'full', type: 'full-access', lifespan: null })).body.data
      .accessKey;
    const drafts = await graphql('{ articles(locale: "en", status: DRAFT) { documentId narration { status } } }', token);
    expect(drafts.body.errors).toBeUndefined();
    expect(drafts.body.data.articles.find((item: any) => item.documentId === draft).narration).toBeNull();

    const refused = await graphql('{ pages { documentId narration { status } } }');
    expect(refused.body.data?.pages ?? null).toBeNull();
  });
});

describe('voice overrides', () => {
  it('keeps both of two overrides saved at once, and removes them with the document', async () => {
    const one = (await articles.create({ title: 'Voice one', summary: 'One.', body: blocks('One.') }, 'en')).documentId;
    const two = (await articles.create({ title: 'Voice two', summary: 'Two.', body: blocks('Two.') }, 'en')).documentId;
    const saves = await Promise.all([
      stack.admin('PUT', '/speech/narrations/voice', { contentType: ARTICLE, documentId: one, locale: 'en', voiceId: 'en-male-1' }),
      stack.admin('PUT', '/speech/narrations/voice', { contentType: ARTICLE, documentId: two, locale: 'en', voiceId: 'ar-female-1' }),
    ]);
    expect(saves.map((save) => save.status)).toEqual([200, 200]);
    expect(
      (await stack.admin('POST', '/speech/narrations/estimate', { contentType: ARTICLE, documentId: one, locale: 'en' })).body.voiceOverride
    ).toBe('en-male-1');
    expect(
      (await stack.admin('POST', '/speech/narrations/estimate', { contentType: ARTICLE, documentId: two, locale: 'en' })).body.voiceOverride
    ).toBe('ar-female-1');

    const db = new Database(path.join(stack.workDir, 'data.db'), { readonly: true });
    try {
      const count = () =>
        (db.prepare('SELECT count(*) AS n FROM speech_voice_overrides WHERE target_document_id = ?').get(one) as { n: number }).n;
      expect(count()).toBe(1);
      await articles.remove(one, 'en');
      await waitFor(async () => count() === 0, { what: 'the override of the deleted document to go' });
      expect(
        (db.prepare('SELECT count(*) AS n FROM speech_voice_overrides WHERE target_document_id = ?').get(two) as { n: number }).n
      ).toBe(1);
    } finally {
      db.close();
    }
  });
});

describe('what the content API hides is never narrated', () => {
  it('refuses settings that name a plugin type or a private field, naming it, and changes nothing', async () => {
    const users = await stack.admin('PUT', '/speech/settings', {
      contentTypes: { 'plugin::users-permissions.user': { textFields: ['email', 'resetPasswordToken'], trigger: 'save' } },
    });
    expect(users.status).toBe(400);
    expect(users.body.error.message).toContain('plugin::users-permissions.user');

    const privateField = await stack.admin('PUT', '/speech/settings', {
      contentTypes: { [ARTICLE]: { titleField: 'title', textFields: ['summary', 'internalNotes'], trigger: 'publish' } },
    });
    expect(privateField.status).toBe(400);
    expect(privateField.body.error.message).toContain('internalNotes');
    const settings = (await stack.admin('GET', '/speech/settings')).body.settings;
    expect(settings.contentTypes[ARTICLE].textFields).toEqual(['summary', 'body']);
    expect(settings.contentTypes['plugin::users-permissions.user']).toBeUndefined();
  });

  it('never sends or serves a private field, even when stored settings name one', async () => {
    // Settings saved before the field was made private: written straight to Strapi's store.
    const db = new Database(path.join(stack.workDir, 'data.db'));
    try {
      const row = db.prepare("SELECT value FROM strapi_core_store_settings WHERE key = 'plugin_speech_settings'").get() as
        | { value: string }
        | undefined;
      const current = row ? JSON.parse(row.value) : {};
      const value = JSON.stringify({
        ...current,
        contentTypes: {
          ...(current.contentTypes ?? {}),
          [ARTICLE]: { titleField: 'title', textFields: ['summary', 'internalNotes', 'body'], trigger: 'publish' },
        },
      });
      if (row) db.prepare("UPDATE strapi_core_store_settings SET value = ? WHERE key = 'plugin_speech_settings'").run(value);
      else
        db.prepare(
          "INSERT INTO strapi_core_store_settings (key, value, type, environment, tag) VALUES ('plugin_speech_settings', ?, 'object', NULL, NULL)"
        ).run(value);
    } finally {
      db.close();
    }
    await sleep(5_500); // the settings cache

    const documentId = (
      await articles.create(
        { title: 'Has notes', summary: 'Public summary.', body: blocks('Public body.'), internalNotes: 'SECRET-NOTE-42' },
        'en'
      )
    ).documentId;
    await articles.publish(documentId, 'en');
    await waitForStatus(stack, ARTICLE, documentId, 'completed', 'en');
    const [submission] = await submissionsFor(stack, `${documentId}-en`);
    expect(submission.body.text).toContain('Public summary.');
    expect(submission.body.text).not.toContain('SECRET-NOTE-42');
    const srt = await stack.request(`/api/speech/narrations/${documentId}-en/subtitles.srt`);
    expect(await srt.text()).not.toContain('SECRET-NOTE-42');
  });
});
