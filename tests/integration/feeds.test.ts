import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { DOMParser } from '@xmldom/xmldom';
import Ajv from 'ajv';
import Database from 'better-sqlite3';
import { parseFeed } from 'podcast-partytime';
import { v5 as uuidv5 } from 'uuid';
import { blocks, contentManager, startStack, waitFor, type Stack } from './harness';
import NodeID3 from 'node-id3';
import { pngHead } from '../unit/feeds/png-fixtures';
import {
  decodeWithFfmpeg,
  emulatorDuration,
  longBody,
  mp3TagsWithFfprobe,
  narrationAudio,
  partRequests,
  partsSeconds,
  publicNarration,
  publishArticleIn,
  publishOneParagraphEdited,
  setNarrationMode,
  sleep,
  spokenText,
  submissionsFor,
  waitForNewNarration,
  waitForStatus,
} from './narration-helpers';

/**
 * Podcast feeds and machine-readable audio, against the real playground and the emulator's MP3s:
 * the feed of a type with an English and an Arabic narrated article is RSS a real XML parser reads,
 * its enclosures have the stored files' exact lengths and durations read from the MP3s, and it
 * leaves out drafts, unpublished entries, failed narrations and types the Public role may not read.
 * Plus the narration routes' ETags and a byte range of audio.mp3 through its redirect.
 */

const ARTICLE = 'api::article.article';
const PAGE = 'api::page.page';
const ITUNES = 'http://www.itunes.com/dtds/podcast-1.0.dtd';
const PODCAST = 'https://podcastindex.org/namespace/1.0';
/** The Podcasting 2.0 namespace's UUID for `podcast:guid` (https://podcastindex.org/namespace/1.0#guid). */
const PODCAST_GUID_NAMESPACE = 'ead4c236-bf58-58c6-a2c6-a6b28d128cb6';
/** JSON Chapters 1.2.0 (podcastindex-org/podcast-namespace, chapters/jsonChapters.md) as a JSON Schema. */
const JSON_CHAPTERS_1_2_0 = {
  type: 'object',
  required: ['version', 'chapters'],
  properties: {
    version: { const: '1.2.0' },
    author: { type: 'string' },
    title: { type: 'string' },
    podcastName: { type: 'string' },
    description: { type: 'string' },
    fileName: { type: 'string' },
    waypoints: { type: 'boolean' },
    chapters: {
      type: 'array',
      items: {
        type: 'object',
        required: ['startTime'],
        additionalProperties: false,
        properties: {
          startTime: { type: 'number', minimum: 0 },
          endTime: { type: 'number', minimum: 0 },
          title: { type: 'string' },
          img: { type: 'string' },
          url: { type: 'string' },
          toc: { type: 'boolean' },
          location: { type: 'object' },
        },
      },
    },
  },
  additionalProperties: false,
} as const;
/** One MPEG 2 layer III frame of the emulator's MP3s (576 samples at 22.05 kHz). */
const FRAME_SECONDS = 576 / 22050;
const CHANNEL = {
  title: 'The Desk & "Friends"',
  description: 'Articles, read aloud.',
  author: 'مكتب التحرير',
  imageUrl: 'https://cdn.example/cover.png',
  link: 'https://site.example/',
  category: 'News',
  owner: { name: 'The Desk', email: 'podcast@site.example' },
};
/** The article type as the playground narrates it, with a front-end URL, a summary field and a byline. */
const FRONT_END_URL = 'https://site.example/{locale}/news/{documentId}';
const TYPES = {
  [ARTICLE]: {
    titleField: 'title',
    textFields: ['summary', 'body'],
    trigger: 'publish',
    url: FRONT_END_URL,
    summary: { field: 'summary' },
    authorField: 'byline',
  },
  [PAGE]: { titleField: 'title', textFields: ['content'], trigger: 'save' },
  'api::note.note': { titleField: 'title', textFields: ['text'] },
  'api::homepage.homepage': { titleField: 'title', textFields: ['intro'] },
};
const SUMMARY = 'What this article says, in a sentence.';
jest.setTimeout(300_000);

let stack: Stack;
let articles: ReturnType<typeof contentManager>;
let english: string;
let arabic: string;
let unpublished: string;
let draft: string;
let failed: string;
let closedPage: string;

const heading = (text: string) => ({ type: 'heading', level: 2, children: [{ type: 'text', text }] });

function parseXml(xml: string) {
  return new DOMParser({
    onError: (level, message) => {
      throw new Error(`${level}: ${message}`);
    },
  }).parseFromString(xml, 'text/xml');
}

async function feed(pathname: string, headers: Record<string, string> = {}) {
  const response = await stack.request(pathname, { headers });
  const body = await response.text();
  return { response, body, doc: response.status === 200 ? parseXml(body) : null };
}

function items(doc: ReturnType<typeof parseXml>) {
  return Array.from(doc.getElementsByTagName('item')).map((item) => {
    const enclosure = item.getElementsByTagName('enclosure')[0]!;
    const transcript = item.getElementsByTagNameNS(PODCAST, 'transcript')[0];
    return {
      title: item.getElementsByTagName('title')[0]!.textContent,
      guid: item.getElementsByTagName('guid')[0]!.textContent!,
      guidIsPermaLink: item.getElementsByTagName('guid')[0]!.getAttribute('isPermaLink'),
      pubDate: item.getElementsByTagName('pubDate')[0]!.textContent!,
      url: enclosure.getAttribute('url')!,
      length: Number(enclosure.getAttribute('length')),
      type: enclosure.getAttribute('type'),
      duration: Number(item.getElementsByTagNameNS(ITUNES, 'duration')[0]!.textContent),
      transcript: transcript ? { url: transcript.getAttribute('url'), type: transcript.getAttribute('type') } : null,
      description: item.getElementsByTagName('description')[0]?.textContent ?? null,
    };
  });
}

const articleIdOf = (guid: string) => guid.split('/')[0];

/** The stored file, downloaded through the public route (the redirect followed). */
async function download(url: string): Promise<Buffer> {
  const response = await fetch(url);
  expect(response.status).toBe(200);
  return Buffer.from(await response.arrayBuffer());
}

/** Serves the pages type's artwork: wide, which Apple refuses. */
const artwork = { server: null as http.Server | null, url: '' };

beforeAll(async () => {
  artwork.server = http.createServer((_request, response) =>
    response.writeHead(200, { 'content-type': 'image/png' }).end(pngHead(1600, 900))
  );
  await new Promise<void>((resolve) => artwork.server!.listen(0, '127.0.0.1', resolve));
  artwork.url = `http://127.0.0.1:${(artwork.server.address() as AddressInfo).port}`;
  stack = await startStack({
    graphql: true,
    env: {
      SPEECH_LOCALE_VOICES: 'ar=ar-male-1',
      SPEECH_FEEDS: JSON.stringify({ channel: CHANNEL, contentTypes: { [PAGE]: { imageUrl: `${artwork.url}/wide.png` } } }),
      SPEECH_CONTENT_TYPES: JSON.stringify(TYPES),
    },
  });
  articles = contentManager(stack, ARTICLE);

  english = (
    await articles.create(
      {
        title: 'Listening & reading <together>',
        summary: SUMMARY,
        byline: 'Sara Haddad',
        body: [...blocks('An opening sentence.'), heading('A part'), ...blocks('More words here.')],
      },
      'en'
    )
  ).documentId;
  await articles.publish(english, 'en');
  await waitForStatus(stack, ARTICLE, english, 'completed', 'en');

  // Arabic only: the English version of this document stays a draft.
  arabic = (await articles.create({ title: 'placeholder', body: blocks('Placeholder.') }, 'en')).documentId;
  await articles.update(arabic, { title: 'مقال مسموع "عن" الطقس', body: blocks('جملة افتتاحية.', 'الترجمة تتبع الصوت.') }, 'ar');
  await articles.publish(arabic, 'ar');
  await waitForStatus(stack, ARTICLE, arabic, 'completed', 'ar');

  unpublished = (await articles.create({ title: 'Gone again', body: blocks('Published, then withdrawn.') }, 'en')).documentId;
  await articles.publish(unpublished, 'en');
  await waitForStatus(stack, ARTICLE, unpublished, 'completed', 'en');
  await articles.unpublish(unpublished, 'en');

  draft = (await articles.create({ title: 'Never published', body: blocks('Only a draft.') }, 'en')).documentId;

  failed = (await articles.create({ title: 'No audio ever', body: blocks('Every generation fails.') }, 'en')).documentId;
  await stack.control('POST', '/inject', { kind: 'noAudio', articleId: `${failed}-en`, count: 10 });
  await articles.publish(failed, 'en');
  await waitForStatus(stack, ARTICLE, failed, 'failed', 'en');

  // A narrated type the Public role may not read.
  closedPage = (await contentManager(stack, PAGE).create({ title: 'Members only', content: 'A closed page.' })).documentId;
  await waitForStatus(stack, PAGE, closedPage, 'completed');
});

afterAll(async () => {
  await stack?.stop();
  await new Promise((resolve) => artwork.server?.close(resolve));
});

describe('the narration JSON', () => {
  it("carries the MP3's duration (read from its frames), its exact byte length, the title and a schema.org AudioObject", async () => {
    const { body } = await publicNarration(stack, `${english}-en`);
    const mp3 = await download(body.audioUrl);
    expect(body.audioBytes).toBe(mp3.length);
    // The emulator's own frame count of the same file; the SRT's last cue ends before the encoder's padding.
    expect(Number(body.durationSeconds)).toBeCloseTo(emulatorDuration(mp3), 6);
    expect(body.title).toBe('Listening & reading <together>');
    expect(body.jsonLd).toMatchObject({
      '@context': 'https://schema.org',
      '@type': 'AudioObject',
      name: 'Listening & reading <together>',
      contentUrl: body.audioUrl,
      encodingFormat: 'audio/mpeg',
      inLanguage: 'en',
      caption: { '@type': 'MediaObject', contentUrl: body.vttUrl, encodingFormat: 'text/vtt' },
      // Machine-readable: the voice is synthetic.
      digitalSourceType: 'https://schema.org/TrainedAlgorithmicMediaDigitalSource',
    });
    expect(body.jsonLd.duration).toMatch(/^PT(\d+M)?\d+S$/);
    expect(body.revisions).toEqual([{ at: expect.any(String), cause: 'first', changed: [] }]);
    expect(body.aiLabel).toBe('AI voice');
    // Its page on the site, from the type's url template: in the JSON and its JSON-LD.
    expect(body.pageUrl).toBe(`https://site.example/en/news/${english}`);
    expect(body.jsonLd.url).toBe(body.pageUrl);

    // The stored file says what it is: ID3v2 frames, read by ffprobe and by an ID3 library.
    expect(mp3TagsWithFfprobe(mp3)).toMatchObject({
      title: 'Listening & reading <together>',
      language: 'eng',
      DigitalSourceType: 'http://cv.iptc.org/newscodes/digitalsourcetype/trainedAlgorithmicMedia',
    });
    expect(NodeID3.read(mp3).userDefinedText).toEqual([
      { description: 'DigitalSourceType', value: 'http://cv.iptc.org/newscodes/digitalsourcetype/trainedAlgorithmicMedia' },
    ]);
    // The tag moves no frame: ffmpeg decodes it without an error, as long as stored.
    const decoded = decodeWithFfmpeg(mp3);
    expect(decoded.errors).toBe('');
    expect(Math.abs(decoded.seconds - Number(body.durationSeconds))).toBeLessThanOrEqual(FRAME_SECONDS);
  });

  it('GraphQL serves the new scalar fields and the JSON-LD through its JSON scalar', async () => {
    const response = await stack.request('/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        query: `{ article(documentId: "${english}", locale: "en") { narration { title audioBytes durationSeconds jsonLd } } }`,
      }),
    });
    const { data, errors } = (await response.json()) as any;
    expect(errors).toBeUndefined();
    const { body } = await publicNarration(stack, `${english}-en`);
    expect(data.article.narration).toEqual({
      title: body.title,
      audioBytes: body.audioBytes,
      durationSeconds: Number(body.durationSeconds),
      jsonLd: body.jsonLd,
    });
  });
});

describe('the podcast feed of a type', () => {
  it('is RSS 2.0 a real XML parser reads, with the channel from the configuration', async () => {
    const { response, doc } = await feed('/api/speech/feeds/articles.xml');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/rss\+xml/);
    const channel = doc!.getElementsByTagName('channel')[0]!;
    const text = (name: string) => channel.getElementsByTagName(name)[0]?.textContent;
    expect(text('title')).toBe(CHANNEL.title);
    expect(text('description')).toBe(CHANNEL.description);
    expect(text('link')).toBe(CHANNEL.link);
    expect(channel.getElementsByTagNameNS(ITUNES, 'author')[0]!.textContent).toBe(CHANNEL.author);
    expect(channel.getElementsByTagNameNS(ITUNES, 'image')[0]!.getAttribute('href')).toBe(CHANNEL.imageUrl);
    expect(channel.getElementsByTagNameNS(ITUNES, 'category')[0]!.getAttribute('text')).toBe('News');
  });

  it('lists both narrated articles, newest first, with the stored files exact lengths and the MP3 durations', async () => {
    const { doc } = await feed('/api/speech/feeds/articles.xml');
    const listed = items(doc!);
    expect(listed.map((item) => articleIdOf(item.guid))).toEqual([`${arabic}-ar`, `${english}-en`]);
    expect(listed[0]!.title).toBe('مقال مسموع "عن" الطقس');
    for (const item of listed) {
      const articleId = articleIdOf(item.guid);
      expect(item.url).toBe(`${stack.url}/api/speech/feeds/articles/${articleId}/audio.mp3`);
      expect(item.type).toBe('audio/mpeg');
      expect(item.guidIsPermaLink).toBe('false');
      const mp3 = await download(item.url);
      expect(item.length).toBe(mp3.length);
      expect(Math.abs(item.duration - emulatorDuration(mp3))).toBeLessThanOrEqual(0.5 + FRAME_SECONDS);
      expect(item.transcript).toEqual({ url: `${stack.url}/api/speech/narrations/${articleId}/subtitles.vtt`, type: 'text/vtt' });
      expect((await download(item.transcript!.url!)).toString('utf8').startsWith('WEBVTT')).toBe(true);
      expect(Number.isNaN(Date.parse(item.pubDate))).toBe(false);
    }
  });

  it('leaves out drafts, unpublished entries and failed narrations without audio', async () => {
    const { doc } = await feed('/api/speech/feeds/articles.xml');
    const listed = items(doc!).map((item) => articleIdOf(item.guid));
    for (const documentId of [unpublished, draft, failed]) expect(listed).not.toContain(`${documentId}-en`);
    // The failed one is a narration the plugin knows about: left out for having no audio.
    expect((await publicNarration(stack, `${failed}-en`)).body.status).toBe('failed');
  });

  it('?locale=ar keeps only the Arabic item, and says the channel is Arabic', async () => {
    const { doc } = await feed('/api/speech/feeds/articles.xml?locale=ar');
    expect(items(doc!).map((item) => articleIdOf(item.guid))).toEqual([`${arabic}-ar`]);
    expect(doc!.getElementsByTagName('language')[0]!.textContent).toBe('ar');
    expect((await feed('/api/speech/feeds/articles.xml?locale=en')).doc!.getElementsByTagName('item')).toHaveLength(1);
    expect((await feed('/api/speech/feeds/articles.xml?locale=not a locale')).response.status).toBe(400);
  });

  it("checks each feed's artwork when Strapi starts, and warns, naming the key, of one Apple would refuse", async () => {
    await waitFor(async () => /contentTypes\.api::page\.page\.imageUrl .*it is 1600×900 px, not square\./.test(stack.logs()), {
      what: 'the warning about the wide artwork',
      timeoutMs: 20_000,
    });
    await waitFor(
      async () => /feeds\.channel\.imageUrl \(https:\/\/cdn\.example\/cover\.png\).*could not be downloaded/.test(stack.logs()),
      {
        what: 'the warning about the artwork that cannot be read',
        timeoutMs: 20_000,
      }
    );
    // The feed is served all the same.
    expect((await feed('/api/speech/feeds/articles.xml')).response.status).toBe(200);
  });

  it('answers 404 for a type the Public role may not read, an unknown type, a single type and the plugin tables', async () => {
    for (const name of ['pages', 'nothings', 'homepages', 'narrations', 'homepage']) {
      const { response, body } = await feed(`/api/speech/feeds/${name}.xml`);
      expect([name, response.status]).toEqual([name, 404]);
      expect(body).not.toContain('Members only');
    }
    // Metrics are off unless the file turns them on: their route is not there either.
    expect((await stack.request('/api/speech/metrics', { headers: { authorization: 'Bearer anything-at-all-0123456' } })).status).toBe(404);
  });

  it('is cached publicly, with an ETag that answers 304', async () => {
    const first = await feed('/api/speech/feeds/articles.xml');
    const etag = first.response.headers.get('etag')!;
    expect(etag).toMatch(/^"[\w-]+"$/);
    expect(first.response.headers.get('cache-control')).toBe('public, max-age=300');
    const again = await feed('/api/speech/feeds/articles.xml', { 'if-none-match': etag });
    expect(again.response.status).toBe(304);
    expect(again.body).toBe('');
    // A different locale is a different feed, with its own tag.
    expect((await feed('/api/speech/feeds/articles.xml?locale=ar', { 'if-none-match': etag })).response.status).toBe(200);
  });

  it('refuses a locale the type or the site does not have (404) before building anything: cycling codes leaves the cached feed in place', async () => {
    const current = (await stack.admin('GET', '/speech/settings')).body.settings.contentTypes[PAGE];
    const openPages = async (publicNarration: boolean) => {
      const saved = await stack.admin('PUT', '/speech/settings', { contentTypes: { [PAGE]: { ...current, publicNarration } } });
      expect(saved.status).toBe(200);
    };
    // Pages, a type without locales, get a feed while their narrations are public.
    await openPages(true);
    try {
      expect((await feed('/api/speech/feeds/pages.xml')).response.status).toBe(200);
      const withoutLocales = await feed('/api/speech/feeds/pages.xml?locale=ar');
      expect(withoutLocales.response.status).toBe(404);
      expect(withoutLocales.body).toContain('has no locales');
      const unknown = await feed('/api/speech/feeds/articles.xml?locale=xx');
      expect(unknown.response.status).toBe(404);
      expect(unknown.body).toContain('no locale');
      // A code in another case is the same feed, in the site's spelling.
      const arabicFeed = await feed('/api/speech/feeds/articles.xml?locale=ar');
      const upperCase = await feed('/api/speech/feeds/articles.xml?locale=AR');
      expect(upperCase.response.headers.get('etag')).toBe(arabicFeed.response.headers.get('etag'));
      expect(upperCase.doc!.getElementsByTagName('language')[0]!.textContent).toBe('ar');

      const cached = await feed('/api/speech/feeds/articles.xml');
      // A title written behind the feed's back (its change check reads counts and write times): only a rebuild would show it.
      const db = new Database(path.join(stack.workDir, 'data.db'));
      const retitle = db.prepare('UPDATE speech_narrations SET title = ? WHERE article_id = ?');
      retitle.run('Retitled behind the cache', `${english}-en`);
      try {
        // More codes than the cache holds feeds, on a type without locales and on one with them.
        for (let i = 0; i < 200; i += 1) {
          const pathname = i % 2 ? `/api/speech/feeds/pages.xml?locale=zz-c${i}` : `/api/speech/feeds/articles.xml?locale=zz-c${i}`;
          expect([pathname, (await stack.request(pathname)).status]).toEqual([pathname, 404]);
        }
        const again = await feed('/api/speech/feeds/articles.xml');
        expect(again.response.headers.get('etag')).toBe(cached.response.headers.get('etag'));
        expect(again.body).not.toContain('Retitled behind the cache');
      } finally {
        retitle.run('Listening & reading <together>', `${english}-en`);
        db.close();
      }
    } finally {
      await openPages(false);
    }
  });

  it('a narration stored before audioBytes existed: the first feed measures its local file once and records the exact length', async () => {
    const articleId = `${arabic}-ar`;
    const db = new Database(path.join(stack.workDir, 'data.db'));
    try {
      // As an upgraded row is: no length. Written now, as any write is (the feed's change check sees it).
      const { updated_at: at } = db.prepare('SELECT updated_at FROM speech_narrations WHERE article_id = ?').get(articleId) as {
        updated_at: number | string;
      };
      const later = typeof at === 'number' ? Date.now() : new Date().toISOString();
      db.prepare('UPDATE speech_narrations SET audio_bytes = NULL, updated_at = ? WHERE article_id = ?').run(later, articleId);
    } finally {
      db.close();
    }
    expect((await publicNarration(stack, articleId)).body.audioBytes).toBeNull();
    const [item] = items((await feed('/api/speech/feeds/articles.xml?locale=ar')).doc!);
    const mp3 = await download(item!.url);
    expect(item!.length).toBe(mp3.length);
    expect((await publicNarration(stack, articleId)).body.audioBytes).toBe(mp3.length);
  });

  it('republishing unchanged content keeps the guid; regenerating keeps the episode: its guid and date, the new length, one item', async () => {
    const listedById = async () =>
      Object.fromEntries(items((await feed('/api/speech/feeds/articles.xml')).doc!).map((item) => [articleIdOf(item.guid), item]));
    const before = await listedById();

    const submissions = (await submissionsFor(stack, `${english}-en`)).length;
    await articles.publish(english, 'en');
    await sleep(1500);
    expect(await submissionsFor(stack, `${english}-en`)).toHaveLength(submissions);
    // The republish wrote a new published row: the feed was built again, and says the same.
    expect(await listedById()).toEqual(before);

    const row = await waitForStatus(stack, ARTICLE, english, 'completed', 'en');
    const regenerated = await stack.admin('POST', '/speech/narrations/regenerate', {
      contentType: ARTICLE,
      documentId: english,
      locale: 'en',
    });
    expect(regenerated.status).toBe(200);
    await waitForNewNarration(stack, ARTICLE, english, 'en', row.completedAt);
    const listed = items((await feed('/api/speech/feeds/articles.xml')).doc!);
    // Podcast apps keep an episode by its guid: a correction updates it, it is not a second episode.
    expect(listed.filter((item) => articleIdOf(item.guid) === `${english}-en`)).toHaveLength(1);
    const after = Object.fromEntries(listed.map((item) => [articleIdOf(item.guid), item]));
    expect(after[`${english}-en`]!.guid).toBe(before[`${english}-en`]!.guid);
    expect(after[`${english}-en`]!.pubDate).toBe(before[`${english}-en`]!.pubDate);
    expect(after[`${arabic}-ar`]).toEqual(before[`${arabic}-ar`]);
    // The enclosure is the new file: its length is the new audio's.
    const newAudio = await download(after[`${english}-en`]!.url);
    expect(after[`${english}-en`]!.length).toBe(newAudio.length);
    // The order is by first publication: the corrected article keeps its place.
    expect(listed.map((item) => articleIdOf(item.guid))).toEqual(Object.keys(before));
  });

  it('an edit narrated again keeps the episode: its guid and date, the new audio, one item, a description ending with the change note', async () => {
    const [before] = items((await feed('/api/speech/feeds/articles.xml?locale=en')).doc!);
    const row = await waitForStatus(stack, ARTICLE, english, 'completed', 'en');
    await articles.update(
      english,
      {
        title: 'Listening & reading <together>',
        summary: SUMMARY,
        byline: 'Sara Haddad',
        body: [...blocks('An opening sentence, corrected.'), heading('A part'), ...blocks('More words here, and a few more besides.')],
      },
      'en'
    );
    await articles.publish(english, 'en');
    await waitForNewNarration(stack, ARTICLE, english, 'en', row.completedAt);

    const { doc } = await feed('/api/speech/feeds/articles.xml?locale=en');
    const listed = items(doc!);
    expect(listed).toHaveLength(1);
    const [after] = listed;
    expect([after!.guid, after!.pubDate]).toEqual([before!.guid, before!.pubDate]);
    const mp3 = await download(after!.url);
    expect(after!.length).toBe(mp3.length);
    expect(after!.length).not.toBe(before!.length);
    expect(Math.abs(after!.duration - emulatorDuration(mp3))).toBeLessThanOrEqual(0.5 + FRAME_SECONDS);

    // Newest first: the edit, the regenerate before it, the first narration.
    const { revisions } = (await publicNarration(stack, `${english}-en`)).body;
    expect(revisions.map((revision: { cause: string }) => revision.cause)).toEqual(['edit', 'regenerate', 'first']);
    // Narrated whole: which passages changed is not known, so the whole audio is.
    expect(revisions[0].changed).toEqual([]);
    const day = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' }).format(
      new Date(revisions[0].at)
    );
    const description = doc!.getElementsByTagName('item')[0]!.getElementsByTagName('description')[0]!.textContent;
    expect(description).toBe(`${SUMMARY}\n\nUpdated ${day}: narrated again after an edit.`);

    // The admin lists the versions with what each one's requests spent: the ledger's own entries.
    const versions = await stack.admin('GET', `/speech/narrations/${english}-en/versions`);
    expect(versions.status).toBe(200);
    expect(versions.body.data.map((version: { cause: string }) => version.cause)).toEqual(['edit', 'regenerate', 'first']);
    const ledger = (await stack.admin('GET', '/speech/usage')).body;
    expect(ledger.monthToDate.credits).toBeGreaterThanOrEqual(
      versions.body.data.reduce((sum: number, version: { credits: number }) => sum + version.credits, 0)
    );
    for (const version of versions.body.data) expect(version.credits).toBeGreaterThan(0);
    expect(versions.body.data[0].verification).toBeNull();
    expect((await stack.admin('GET', '/speech/narrations/no-such-article/versions')).status).toBe(404);
  });

  it('parses in a Podcasting 2.0 parser: the channel guid by its rule, the owner, chapters JSON 1.2.0, both transcripts, the byline, the other locale', async () => {
    await articles.update(
      english,
      { title: 'الاستماع والقراءة معاً', summary: 'ملخص المقال.', byline: 'سارة حداد', body: blocks('نص عربي قصير.') },
      'ar'
    );
    await articles.publish(english, 'ar');
    await waitForStatus(stack, ARTICLE, english, 'completed', 'ar');

    const selfUrl = `${stack.url}/api/speech/feeds/articles.xml?locale=en`;
    const parsed = parseFeed((await feed('/api/speech/feeds/articles.xml?locale=en')).body)!;
    expect(parsed.guid).toBe(uuidv5(selfUrl.replace(/^https?:\/\//, ''), PODCAST_GUID_NAMESPACE));
    expect([parsed.locked, parsed.podcastOwner]).toEqual([true, CHANNEL.owner.email]);
    expect(parsed.owner).toEqual({ name: CHANNEL.owner.name, email: CHANNEL.owner.email });

    const item = parsed.items.find((candidate) => candidate.guid.startsWith(`${english}-en`))!;
    expect(item.link).toBe(`https://site.example/en/news/${english}`);
    expect(item.description).toContain(SUMMARY);
    // The parser names the taxonomy's role and group as the namespace lists them: ours are known ones.
    expect(item.podcastPeople).toEqual([expect.objectContaining({ name: 'Sara Haddad', role: 'Author', group: 'Writing' })]);
    const transcripts = item.podcastTranscripts!.map((transcript) => [transcript.type, transcript.url]);
    expect(transcripts).toEqual([
      ['text/vtt', `${stack.url}/api/speech/narrations/${english}-en/subtitles.vtt`],
      ['application/srt', `${stack.url}/api/speech/narrations/${english}-en/subtitles.srt`],
    ]);
    expect((await download(transcripts[1]![1]!)).toString('utf8')).toMatch(/^1\r?\n00:00:00,000 --> /);

    const alternates = item.alternativeEnclosures ?? [];
    expect(alternates.map((alternate) => alternate.lang)).toEqual(['ar']);
    const arabicAudio = alternates[0]!.source[0]!.uri;
    expect(arabicAudio).toBe(`${stack.url}/api/speech/feeds/articles/${english}-ar/audio.mp3`);
    expect(alternates[0]!.length).toBe((await download(arabicAudio)).length);

    expect(item.podcastChapters).toEqual({
      url: `${stack.url}/api/speech/narrations/${english}-en/chapters.json`,
      type: 'application/json+chapters',
    });
    const chapters = await fetch(item.podcastChapters!.url);
    expect(chapters.headers.get('content-type')).toMatch(/^application\/json\+chapters/);
    const document = await chapters.json();
    const validate = new Ajv({ strict: true }).compile(JSON_CHAPTERS_1_2_0);
    expect([validate(document), validate.errors]).toEqual([true, null]);
    expect(document.chapters.map((chapter: { title: string }) => chapter.title)).toEqual(['Listening & reading <together>', 'A part']);
    const vtt = await (await fetch(`${stack.url}/api/speech/narrations/${english}-en/chapters.vtt`)).text();
    // The same headings at the same times as chapters.vtt.
    expect((vtt.match(/^\d\d:\d\d:\d\d\.\d{3}/gm) ?? []).length).toBe(document.chapters.length);
  });
});

describe('embeds and sharing', () => {
  const oembed = (url: string, extra = '') => stack.request(`/api/speech/oembed?url=${encodeURIComponent(url)}&format=json${extra}`);

  it("oEmbed answers for the article's page (its type's url) and for the narration's URL: a rich iframe of the embed page", async () => {
    const embedUrl = `${stack.url}/api/speech/embed/${english}-en`;
    for (const url of [`https://site.example/en/news/${english}`, `${stack.url}/api/speech/narrations/${english}-en`, embedUrl]) {
      const response = await oembed(url);
      expect([url, response.status]).toEqual([url, 200]);
      const body = (await response.json()) as any;
      expect(body).toMatchObject({ version: '1.0', type: 'rich', width: 640, height: 360, title: 'Listening & reading <together>' });
      expect(body.html).toBe(
        `<iframe src="${embedUrl}" width="640" height="360" title="Listening &amp; reading &lt;together&gt;" style="border:0" loading="lazy" allow="autoplay"></iframe>`
      );
    }
    const small = (await (await oembed(embedUrl, '&maxwidth=320&maxheight=200')).json()) as any;
    expect([small.width, small.height]).toEqual([320, 200]);
    // The Arabic page of the same document is the Arabic narration.
    const arabicPage = (await (await oembed(`https://site.example/ar/news/${arabic}`)).json()) as any;
    expect(arabicPage.html).toContain(`/api/speech/embed/${arabic}-ar`);
  });

  it('oEmbed: 404 where the narration JSON is a 404 (unpublished, a draft, a closed type, no narration), clear errors for bad requests', async () => {
    for (const url of [
      `https://site.example/en/news/${unpublished}`,
      `https://site.example/en/news/${draft}`,
      `https://site.example/en/news/${failed}`,
      `${stack.url}/api/speech/narrations/${closedPage}`,
      `${stack.url}/api/speech/embed/${unpublished}-en`,
      'https://elsewhere.example/en/news/x',
    ]) {
      const response = await oembed(url);
      expect([url, response.status]).toEqual([url, 404]);
      expect(await response.text()).not.toContain('Members only');
    }
    const asXml = `/api/speech/oembed?url=${encodeURIComponent(`https://site.example/en/news/${english}`)}&format=xml`;
    expect((await stack.request(asXml)).status).toBe(501);
    for (const query of ['url=javascript%3Aalert(1)', '', `url=${'x'.repeat(3000)}`, 'url=https%3A%2F%2Fsite.example%2F&maxwidth=-1']) {
      expect([query, (await stack.request(`/api/speech/oembed?${query}`)).status]).toEqual([query, 400]);
    }
  });

  it('the embed page: the player alone, framable anywhere, with its oEmbed link; 404 where the JSON is', async () => {
    const response = await stack.request(`/api/speech/embed/${arabic}-ar`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/html/);
    expect(response.headers.get('x-frame-options')).toBeNull();
    const policy = response.headers.get('content-security-policy')!;
    expect(policy).toContain('frame-ancestors *');
    expect(policy).toContain("script-src 'self'");
    const html = await response.text();
    expect(html).toContain(`<speech-narration api="${stack.url}" article-id="${arabic}-ar" start-from-hash></speech-narration>`);
    expect(html).toContain('<html lang="ar">');
    const oembedLink = /<link rel="alternate" type="application\/json\+oembed" href="([^"]+)"/.exec(html)![1]!.replace(/&amp;/g, '&');
    expect((await (await stack.request(oembedLink.slice(stack.url.length))).json()) as any).toMatchObject({ type: 'rich' });
    const script = /<script type="module" src="([^"]+)"/.exec(html)![1]!.replace(/&amp;/g, '&');
    expect((await stack.request(script.slice(stack.url.length))).headers.get('content-type')).toMatch(/javascript/);
    // The title is escaped, never markup.
    expect(html).toContain('<title>مقال مسموع &quot;عن&quot; الطقس</title>');
    for (const articleId of [`${unpublished}-en`, `${draft}-en`, closedPage, 'no-such-article']) {
      expect([articleId, (await stack.request(`/api/speech/embed/${articleId}`)).status]).toEqual([articleId, 404]);
    }
  });
});

describe('caching headers of the narration routes', () => {
  it('the JSON, the redirects and chapters.vtt carry an ETag and answer 304 to it, never cached publicly', async () => {
    const articleId = `${english}-en`;
    for (const suffix of ['', '/audio.mp3', '/subtitles.srt', '/subtitles.vtt', '/chapters.vtt', '/chapters.json']) {
      const pathname = `/api/speech/narrations/${articleId}${suffix}`;
      const first = await stack.request(pathname, { redirect: 'manual' });
      expect([suffix, first.status]).toEqual([suffix, ['', '/chapters.vtt', '/chapters.json'].includes(suffix) ? 200 : 302]);
      const etag = first.headers.get('etag');
      expect(etag).toBeTruthy();
      expect(first.headers.get('cache-control')).toBe('no-cache');
      expect(first.headers.get('vary')).toMatch(/authorization/i);
      const again = await stack.request(pathname, { redirect: 'manual', headers: { 'if-none-match': etag! } });
      expect([suffix, again.status]).toEqual([suffix, 304]);
      expect(await again.text()).toBe('');
      const stale = await stack.request(pathname, { redirect: 'manual', headers: { 'if-none-match': '"something-else"' } });
      expect([suffix, stale.status]).toEqual([suffix, first.status]);
    }
    // What the caller may not see is a 404, whatever tag it sends.
    expect((await stack.request(`/api/speech/narrations/${unpublished}-en`, { headers: { 'if-none-match': '*' } })).status).toBe(404);
    // The chapters too: of an unpublished entry, and of a type the Public role may not read.
    for (const pathname of [
      `/api/speech/narrations/${unpublished}-en/chapters.json`,
      `/api/speech/narrations/${closedPage}/chapters.json`,
    ]) {
      const refused = await stack.request(pathname);
      expect([pathname, refused.status]).toEqual([pathname, 404]);
      expect(await refused.text()).not.toContain('chapters');
    }
  });
});

describe('byte ranges of the audio', () => {
  it('Range: bytes=1000-1999 on audio.mp3, following the redirect, answers 206 with exactly those bytes', async () => {
    const url = `${stack.url}/api/speech/narrations/${arabic}-ar/audio.mp3`;
    const whole = await download(url);
    expect(whole.length).toBeGreaterThan(2000);
    const ranged = await fetch(url, { headers: { range: 'bytes=1000-1999' } });
    expect(ranged.status).toBe(206);
    expect(ranged.headers.get('content-range')).toBe(`bytes 1000-1999/${whole.length}`);
    const part = Buffer.from(await ranged.arrayBuffer());
    expect(part.length).toBe(1000);
    expect(part.equals(whole.subarray(1000, 2000))).toBe(true);
  });
});

describe('a segmented narration', () => {
  let segmented: string;
  let body: string[];
  const articleId = () => `${segmented}-en`;

  beforeAll(async () => {
    // Parts of at most 200 characters: each paragraph of `longBody` is a part of its own.
    await setNarrationMode(stack, ARTICLE, 'segmented', 200);
    body = longBody(6);
    segmented = await publishArticleIn(stack, ARTICLE, 'en', { title: 'Heard in parts', body: blocks(...body) });
    const row = await waitForStatus(stack, ARTICLE, segmented, 'completed', 'en', 120_000);
    expect(row.parts.total).toBeGreaterThanOrEqual(6);
  });

  afterAll(async () => {
    await setNarrationMode(stack, ARTICLE, 'whole');
  });

  /** The feed's item of the segmented article. */
  async function itemOf() {
    const listed = items((await feed('/api/speech/feeds/articles.xml')).doc!);
    return listed.find((item) => articleIdOf(item.guid) === articleId())!;
  }

  it('the narration JSON, GraphQL and REST (?narration=true) give the joined MP3: its URL, its exact duration and byte length', async () => {
    const { body: json } = await publicNarration(stack, articleId());
    const audioUrl = `${stack.url}/api/speech/narrations/${articleId()}/audio.mp3`;
    const { mp3, seconds } = await narrationAudio(stack, articleId());
    // The joined file: every part's audio, one after the other (within one frame of 1152 samples).
    const parts = await partsSeconds(stack, await partRequests(stack, articleId()));
    expect(Math.abs(seconds - parts)).toBeLessThanOrEqual(1152 / 22050);
    expect(json).toMatchObject({ status: 'ready', audioUrl, audioBytes: mp3.length });
    expect(json.durationSeconds).toBeCloseTo(seconds, 6);
    expect(json.jsonLd).toMatchObject({ contentUrl: audioUrl, duration: expect.stringMatching(/^PT(\d+M)?\d+S$/) });
    // The joined file carries the tag too, in front of its header frame: its parts' map still reads.
    expect(mp3TagsWithFfprobe(mp3)).toMatchObject({
      title: 'Heard in parts',
      DigitalSourceType: 'http://cv.iptc.org/newscodes/digitalsourcetype/trainedAlgorithmicMedia',
    });
    const decoded = decodeWithFfmpeg(mp3);
    expect(decoded.errors).toBe('');
    expect(Math.abs(decoded.seconds - seconds)).toBeLessThanOrEqual(1152 / 22050);

    const fields = 'status audioUrl srtUrl vttUrl chaptersUrl audioBytes durationSeconds jsonLd';
    const response = await stack.request('/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: `{ article(documentId: "${segmented}", locale: "en") { narration { ${fields} } } }` }),
    });
    const { data, errors } = (await response.json()) as any;
    expect(errors).toBeUndefined();
    const expected = Object.fromEntries(fields.split(' ').map((field) => [field, json[field]]));
    expect(data.article.narration).toEqual(expected);

    const rest = (await (await stack.request(`/api/articles/${segmented}?locale=en&narration=true`)).json()) as any;
    expect(rest.data.narration).toMatchObject(expected);
    const list = (await (await stack.request('/api/articles?locale=en&narration=true')).json()) as any;
    expect(list.data.find((entry: any) => entry.documentId === segmented).narration).toMatchObject(expected);
  });

  it("the feed's enclosure has the joined MP3's byte length and duration, and the new joined file's after an edit of one paragraph", async () => {
    const checkItem = async () => {
      const item = await itemOf();
      const { mp3, seconds } = await narrationAudio(stack, articleId());
      expect(item.url).toBe(`${stack.url}/api/speech/feeds/articles/${articleId()}/audio.mp3`);
      expect(item.length).toBe(mp3.length);
      expect(Math.abs(item.duration - seconds)).toBeLessThanOrEqual(0.5 + FRAME_SECONDS);
      expect(item.transcript).toEqual({ url: `${stack.url}/api/speech/narrations/${articleId()}/subtitles.vtt`, type: 'text/vtt' });
      const vtt = spokenText((await download(item.transcript!.url!)).toString('utf8'));
      for (const paragraph of body) expect(vtt).toContain(paragraph);
      return { item, bytes: mp3.length };
    };
    const before = await checkItem();
    ({ body } = await publishOneParagraphEdited(stack, ARTICLE, segmented, 'en', body, 3));
    const after = await checkItem();
    expect(after.bytes).not.toBe(before.bytes);
    // New audio, the same episode: its guid and date stay, its enclosure is the new joined file.
    expect(after.item.guid).toBe(before.item.guid);
    expect(after.item.pubDate).toBe(before.item.pubDate);
    const listed = items((await feed('/api/speech/feeds/articles.xml')).doc!);
    expect(listed.filter((item) => articleIdOf(item.guid) === articleId())).toHaveLength(1);

    // The one paragraph re-read, where it is in the new audio, and the feed says so.
    const { revisions } = (await publicNarration(stack, articleId())).body;
    expect(revisions.map((revision: { cause: string }) => revision.cause)).toEqual(['edit', 'first']);
    expect(revisions[0].changed).toHaveLength(1);
    const [span] = revisions[0].changed;
    const { seconds } = await narrationAudio(stack, articleId());
    expect(span.start).toBeGreaterThan(0);
    expect(span.end).toBeGreaterThan(span.start);
    expect(span.end).toBeLessThan(seconds);
    // No summary: the first paragraph, then the note.
    expect(after.item.description).toMatch(/\n\nUpdated \d{1,2} [A-Z][a-z]+ \d{4}: 1 passage re-read\.$/);
    expect(after.item.description!.startsWith(`${body[0]}\n\n`)).toBe(true);
  });
});
