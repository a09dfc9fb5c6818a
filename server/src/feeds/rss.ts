import { element, renderXmlDocument, type XmlElement } from './xml';

/** A podcast feed as RSS 2.0 with the iTunes and Podcasting 2.0 namespaces. */

export const RSS_NAMESPACES = {
  'xmlns:itunes': 'http://www.itunes.com/dtds/podcast-1.0.dtd',
  'xmlns:podcast': 'https://podcastindex.org/namespace/1.0',
  'xmlns:atom': 'http://www.w3.org/2005/Atom',
} as const;

export interface FeedChannel {
  title: string;
  description: string;
  link: string;
  /** `atom:link rel="self"`. */
  selfUrl: string;
  language: string | null;
  author: string | null;
  imageUrl: string | null;
  category: string | null;
  explicit: boolean;
  /** `podcast:guid` (podcast-guid.ts). */
  podcastGuid: string;
  /** `itunes:owner`, and who may move a `podcast:locked` feed. */
  owner: { name: string | null; email: string } | null;
  /** `podcast:locked`: only with an owner email, whom a directory asks before a move. */
  locked: boolean;
}

/** The same episode in another locale of the document (`podcast:alternateEnclosure`). */
export interface AlternateAudio {
  language: string;
  audioUrl: string;
  audioBytes: number | null;
}

export interface FeedItem {
  guid: string;
  title: string;
  audioUrl: string;
  /** Null is written as 0, as the RSS Best Practices Profile says for an unknown size. */
  audioBytes: number | null;
  durationSeconds: number | null;
  /** When its first audio was stored: a correction keeps the episode's date, so apps do not push it as news. */
  publishedAt: string;
  transcriptUrl: string | null;
  srtUrl: string | null;
  chaptersUrl: string | null;
  language: string | null;
  /** The article's page on the site; left out without a type `url`. */
  link: string | null;
  /** Plain text: the summary or the first paragraph, then the change note. */
  description: string | null;
  /** The byline (the type's `authorField`). */
  author: string | null;
  alternates: AlternateAudio[];
}

/** The guid an item is first served under (then kept): the article and its audio at that time, as older versions named every item. */
export function feedItemGuid(articleId: string, audioFile: { id: number; hash?: string | null }): string {
  return `${articleId}/${audioFile.hash || `file-${audioFile.id}`}`;
}

export const rfc822 = (iso: string) => new Date(iso).toUTCString();

function itemElement(item: FeedItem): XmlElement {
  return element('item', {}, [
    element('title', {}, item.title),
    item.link && element('link', {}, item.link),
    item.description && element('description', {}, item.description),
    element('guid', { isPermaLink: 'false' }, item.guid),
    element('pubDate', {}, rfc822(item.publishedAt)),
    element('enclosure', { url: item.audioUrl, length: item.audioBytes ?? 0, type: 'audio/mpeg' }),
    item.durationSeconds != null && element('itunes:duration', {}, Math.round(item.durationSeconds)),
    item.transcriptUrl &&
      element('podcast:transcript', { url: item.transcriptUrl, type: 'text/vtt', language: item.language, rel: 'captions' }),
    item.srtUrl && element('podcast:transcript', { url: item.srtUrl, type: 'application/srt', language: item.language, rel: 'captions' }),
    item.chaptersUrl && element('podcast:chapters', { url: item.chaptersUrl, type: 'application/json+chapters' }),
    item.author && element('podcast:person', { group: 'writing', role: 'author' }, item.author),
    ...item.alternates.map((alternate) =>
      element('podcast:alternateEnclosure', { type: 'audio/mpeg', length: alternate.audioBytes ?? 0, lang: alternate.language }, [
        element('podcast:source', { uri: alternate.audioUrl }),
      ])
    ),
  ]);
}

/** Its last build date is the newest item's, so an unchanged feed is byte-identical. */
export function podcastRss(channel: FeedChannel, items: FeedItem[]): string {
  const newest = items[0]?.publishedAt;
  return renderXmlDocument(
    element('rss', { version: '2.0', ...RSS_NAMESPACES }, [
      element('channel', {}, [
        element('title', {}, channel.title),
        element('link', {}, channel.link),
        element('description', {}, channel.description),
        element('atom:link', { href: channel.selfUrl, rel: 'self', type: 'application/rss+xml' }),
        channel.language && element('language', {}, channel.language),
        newest && element('lastBuildDate', {}, rfc822(newest)),
        element('generator', {}, 'strapi-plugin-speech'),
        element('podcast:guid', {}, channel.podcastGuid),
        channel.owner && element('podcast:locked', { owner: channel.owner.email }, channel.locked ? 'yes' : 'no'),
        channel.author && element('itunes:author', {}, channel.author),
        channel.owner &&
          element('itunes:owner', {}, [
            channel.owner.name && element('itunes:name', {}, channel.owner.name),
            element('itunes:email', {}, channel.owner.email),
          ]),
        channel.imageUrl && element('itunes:image', { href: channel.imageUrl }),
        channel.imageUrl &&
          element('image', {}, [
            element('url', {}, channel.imageUrl),
            element('title', {}, channel.title),
            element('link', {}, channel.link),
          ]),
        channel.category && element('itunes:category', { text: channel.category }),
        element('itunes:explicit', {}, channel.explicit ? 'true' : 'false'),
        element('itunes:type', {}, 'episodic'),
        ...items.map(itemElement),
      ]),
    ])
  );
}
