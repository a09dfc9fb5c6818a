import { DOMParser } from '@xmldom/xmldom';
import { RSS_NAMESPACES, feedItemGuid, podcastRss, type FeedChannel, type FeedItem } from '../../../server/src/feeds/rss';
import { element, escapeXml, renderXmlDocument } from '../../../server/src/feeds/xml';

const ITUNES = RSS_NAMESPACES['xmlns:itunes'];
const PODCAST = RSS_NAMESPACES['xmlns:podcast'];

/** A real, namespace-aware parser: throws on anything that is not well-formed XML. */
function parse(xml: string) {
  return new DOMParser({
    onError: (level, message) => {
      throw new Error(`${level}: ${message}`);
    },
  }).parseFromString(xml, 'text/xml');
}

const channel: FeedChannel = {
  title: 'Tom & Jerry\'s <"Desk">',
  description: 'Articles, read aloud',
  link: 'https://site.example/',
  selfUrl: 'https://cms.example/api/speech/feeds/articles.xml?locale=ar&x=1',
  language: 'ar',
  author: 'المحرر',
  imageUrl: 'https://cdn.example/cover.png?size=1400&fmt=png',
  category: 'News',
  explicit: false,
  podcastGuid: '917393e3-1b1e-5cef-ace4-edaa54e1f810',
  owner: { name: 'مكتب التحرير', email: 'podcast@site.example' },
  locked: true,
};

const item = (overrides: Partial<FeedItem> = {}): FeedItem => ({
  guid: 'abc-ar/narration_abc_1a2b',
  title: 'مقال عن "الأخبار" & <الطقس>',
  audioUrl: 'https://cms.example/api/speech/narrations/abc-ar/audio.mp3',
  audioBytes: 18_494,
  durationSeconds: 83.4,
  publishedAt: '2026-11-20T10:00:00.000Z',
  transcriptUrl: 'https://cms.example/api/speech/narrations/abc-ar/subtitles.vtt',
  srtUrl: 'https://cms.example/api/speech/narrations/abc-ar/subtitles.srt',
  chaptersUrl: 'https://cms.example/api/speech/narrations/abc-ar/chapters.json',
  language: 'ar',
  link: 'https://site.example/ar/news/abc',
  description: 'الفقرة الأولى.\n\nحُدِّث في 3 ديسمبر 2026: أُعيدت قراءة 2 من المقاطع.',
  author: 'سارة & <علي>',
  alternates: [{ language: 'en', audioUrl: 'https://cms.example/api/speech/feeds/articles/abc-en/audio.mp3', audioBytes: 20_000 }],
  ...overrides,
});

describe('the XML writer', () => {
  it('escapes & < > " \' in text and attributes, and keeps Arabic as it is', () => {
    expect(escapeXml(`a & b < c > d " e ' f`)).toBe('a &amp; b &lt; c &gt; d &quot; e &apos; f');
    expect(escapeXml('مرحبا بالعالم')).toBe('مرحبا بالعالم');
    const xml = renderXmlDocument(element('root', { note: `"q" & 'a' <b>` }, [element('t', {}, `&<>"' عربي`)]));
    const doc = parse(xml);
    expect(doc.documentElement!.getAttribute('note')).toBe(`"q" & 'a' <b>`);
    expect(doc.getElementsByTagName('t')[0]!.textContent).toBe(`&<>"' عربي`);
  });

  it('drops characters XML cannot carry rather than writing an unreadable document', () => {
    expect(escapeXml('bell\u0007 form\u000C lone\uD800 ok\u{1F600}\tnew\nline')).toBe('bell form lone ok\u{1F600}\tnew\nline');
    expect(() => parse(renderXmlDocument(element('t', {}, 'a\u0000b\u001Fc')))).not.toThrow();
  });

  it('writes empty elements self-closed and leaves out null attributes and children', () => {
    expect(renderXmlDocument(element('a', { x: null, y: undefined, z: 0 }, [null, false, element('b')]))).toBe(
      '<?xml version="1.0" encoding="UTF-8"?>\n<a z="0">\n  <b/>\n</a>\n'
    );
  });
});

describe('the podcast feed', () => {
  it('is RSS 2.0 with the iTunes and Podcasting 2.0 namespaces, the channel from the configuration', () => {
    const doc = parse(podcastRss(channel, [item()]));
    const rss = doc.documentElement!;
    expect(rss.tagName).toBe('rss');
    expect(rss.getAttribute('version')).toBe('2.0');
    const channelEl = rss.getElementsByTagName('channel')[0]!;
    const text = (name: string) => channelEl.getElementsByTagName(name)[0]?.textContent;
    expect(text('title')).toBe(channel.title);
    expect(text('language')).toBe('ar');
    expect(channelEl.getElementsByTagNameNS(ITUNES, 'author')[0]!.textContent).toBe('المحرر');
    expect(channelEl.getElementsByTagNameNS(ITUNES, 'image')[0]!.getAttribute('href')).toBe(channel.imageUrl);
    expect(channelEl.getElementsByTagNameNS(ITUNES, 'category')[0]!.getAttribute('text')).toBe('News');
    expect(channelEl.getElementsByTagNameNS(ITUNES, 'explicit')[0]!.textContent).toBe('false');
    expect(text('lastBuildDate')).toBe('Fri, 20 Nov 2026 10:00:00 GMT');
  });

  it('writes each item with its enclosure, duration, guid, date and transcript', () => {
    const doc = parse(podcastRss(channel, [item()]));
    const itemEl = doc.getElementsByTagName('item')[0]!;
    expect(itemEl.getElementsByTagName('title')[0]!.textContent).toBe('مقال عن "الأخبار" & <الطقس>');
    const enclosure = itemEl.getElementsByTagName('enclosure')[0]!;
    expect([enclosure.getAttribute('url'), enclosure.getAttribute('length'), enclosure.getAttribute('type')]).toEqual([
      item().audioUrl,
      '18494',
      'audio/mpeg',
    ]);
    expect(itemEl.getElementsByTagNameNS(ITUNES, 'duration')[0]!.textContent).toBe('83');
    const guid = itemEl.getElementsByTagName('guid')[0]!;
    expect([guid.textContent, guid.getAttribute('isPermaLink')]).toEqual(['abc-ar/narration_abc_1a2b', 'false']);
    expect(itemEl.getElementsByTagName('pubDate')[0]!.textContent).toBe('Fri, 20 Nov 2026 10:00:00 GMT');
    const transcript = itemEl.getElementsByTagNameNS(PODCAST, 'transcript')[0]!;
    expect([transcript.getAttribute('url'), transcript.getAttribute('type'), transcript.getAttribute('language')]).toEqual([
      item().transcriptUrl,
      'text/vtt',
      'ar',
    ]);
  });

  it('an unknown size is written as length 0 (RSS Best Practices), an unknown duration left out', () => {
    const doc = parse(
      podcastRss({ ...channel, imageUrl: null, author: null, category: null, language: null }, [
        item({ audioBytes: null, durationSeconds: null }),
      ])
    );
    expect(doc.getElementsByTagName('enclosure')[0]!.getAttribute('length')).toBe('0');
    expect(doc.getElementsByTagNameNS(ITUNES, 'duration')).toHaveLength(0);
    expect(doc.getElementsByTagNameNS(ITUNES, 'image')).toHaveLength(0);
    expect(doc.getElementsByTagName('language')).toHaveLength(0);
  });

  it('is byte-identical when built twice from the same rows (its ETag holds)', () => {
    expect(podcastRss(channel, [item(), item({ guid: 'b' })])).toBe(podcastRss(channel, [item(), item({ guid: 'b' })]));
    expect(parse(podcastRss(channel, [])).getElementsByTagName('item')).toHaveLength(0);
  });

  it('the channel carries podcast:guid, podcast:locked with its owner, and itunes:owner', () => {
    const channelEl = parse(podcastRss(channel, [item()])).getElementsByTagName('channel')[0]!;
    expect(channelEl.getElementsByTagNameNS(PODCAST, 'guid')[0]!.textContent).toBe(channel.podcastGuid);
    const locked = channelEl.getElementsByTagNameNS(PODCAST, 'locked')[0]!;
    expect([locked.textContent, locked.getAttribute('owner')]).toEqual(['yes', 'podcast@site.example']);
    const owner = channelEl.getElementsByTagNameNS(ITUNES, 'owner')[0]!;
    expect(owner.getElementsByTagNameNS(ITUNES, 'name')[0]!.textContent).toBe('مكتب التحرير');
    expect(owner.getElementsByTagNameNS(ITUNES, 'email')[0]!.textContent).toBe('podcast@site.example');
    const unlocked = parse(podcastRss({ ...channel, locked: false }, [])).getElementsByTagNameNS(PODCAST, 'locked')[0]!;
    expect(unlocked.textContent).toBe('no');
    // No owner to ask: neither is written.
    const ownerless = parse(podcastRss({ ...channel, owner: null }, []));
    expect(ownerless.getElementsByTagNameNS(PODCAST, 'locked')).toHaveLength(0);
    expect(ownerless.getElementsByTagNameNS(ITUNES, 'owner')).toHaveLength(0);
  });

  it('an item links its article, describes it, and carries both transcripts, chapters, the byline and other locales', () => {
    const itemEl = parse(podcastRss(channel, [item()])).getElementsByTagName('item')[0]!;
    expect(itemEl.getElementsByTagName('link')[0]!.textContent).toBe('https://site.example/ar/news/abc');
    expect(itemEl.getElementsByTagName('description')[0]!.textContent).toBe(item().description);
    const transcripts = Array.from(itemEl.getElementsByTagNameNS(PODCAST, 'transcript')).map((el) => [
      el.getAttribute('type'),
      el.getAttribute('url'),
    ]);
    expect(transcripts).toEqual([
      ['text/vtt', item().transcriptUrl],
      ['application/srt', item().srtUrl],
    ]);
    const chapters = itemEl.getElementsByTagNameNS(PODCAST, 'chapters')[0]!;
    expect([chapters.getAttribute('url'), chapters.getAttribute('type')]).toEqual([item().chaptersUrl, 'application/json+chapters']);
    const person = itemEl.getElementsByTagNameNS(PODCAST, 'person')[0]!;
    expect([person.textContent, person.getAttribute('role'), person.getAttribute('group')]).toEqual(['سارة & <علي>', 'author', 'writing']);
    const alternate = itemEl.getElementsByTagNameNS(PODCAST, 'alternateEnclosure')[0]!;
    expect([alternate.getAttribute('lang'), alternate.getAttribute('type'), alternate.getAttribute('length')]).toEqual([
      'en',
      'audio/mpeg',
      '20000',
    ]);
    expect(alternate.getElementsByTagNameNS(PODCAST, 'source')[0]!.getAttribute('uri')).toBe(item().alternates[0].audioUrl);
  });

  it('leaves out what an item does not have', () => {
    const bare = item({ link: null, description: null, author: null, chaptersUrl: null, srtUrl: null, alternates: [] });
    const itemEl = parse(podcastRss(channel, [bare])).getElementsByTagName('item')[0]!;
    for (const name of ['link', 'description']) expect(itemEl.getElementsByTagName(name)).toHaveLength(0);
    for (const name of ['chapters', 'person', 'alternateEnclosure']) expect(itemEl.getElementsByTagNameNS(PODCAST, name)).toHaveLength(0);
    expect(itemEl.getElementsByTagNameNS(PODCAST, 'transcript')).toHaveLength(1);
  });

  it('guids: the article and the stored file, so only a new file changes them', () => {
    expect(feedItemGuid('abc-ar', { id: 7, hash: 'narration_abc_ar_9f8e' })).toBe('abc-ar/narration_abc_ar_9f8e');
    expect(feedItemGuid('abc-ar', { id: 7, hash: null })).toBe('abc-ar/file-7');
    expect(feedItemGuid('abc-ar', { id: 8, hash: 'other' })).not.toBe(feedItemGuid('abc-ar', { id: 7, hash: 'narration_abc_ar_9f8e' }));
  });
});
