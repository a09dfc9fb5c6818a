import { type ContentApiAccess, documentKey } from '../access';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { Core } from '@strapi/strapi';
import { LRUCache } from 'lru-cache';
import { feedItemGuid, podcastRss, type FeedChannel, type FeedItem } from './rss';
import { alternatesOf, itemFields, itemOf, listedIn } from './items';
import { podcastGuid } from './podcast-guid';
import { checkArtwork, configuredArtwork } from './artwork';
import { feedLocale } from './feed-locale';
import { etagOf } from '../http';
import type { NarrationRow, Queue } from '../queue';
import type { ContentReader } from '../narration';
import type { SettingsService } from '../settings';
import type { FeedsConfig } from './config';

/**
 * Podcast feeds of narrated types. A feed is one answer for everyone (shared caches, podcast apps
 * send no tokens), so only the Public role's access counts, never the caller's. Built feeds are
 * cached per (type, locale) until a database stamp changes, so every instance sees a change at once.
 */

export interface BuiltFeed {
  body: string;
  etag: string;
}

/** The reason is the 404's message. */
export type FeedAnswer = { kind: 'feed'; feed: BuiltFeed } | { kind: 'not-found'; reason: string };

interface CachedFeed extends BuiltFeed {
  stamp: string;
  builtAt: number;
}

interface CollectionType {
  uid: string;
  kind?: string;
  info?: { pluralName?: string; displayName?: string };
}

export interface FeedsServiceDeps {
  strapi: Core.Strapi;
  settings: SettingsService;
  config: FeedsConfig;
  content: ContentReader;
  contentApi: ContentApiAccess;
  queue: Pick<Queue, 'reads' | 'recordAudioBytes' | 'keepFeedGuid'>;
}

/** The collection type a feed's path names. */
function collectionType(strapi: Core.Strapi, pluralName: string): CollectionType | null {
  const types = Object.values(strapi.contentTypes as unknown as Record<string, CollectionType>);
  return (
    types.find((type) => type.uid.startsWith('api::') && type.kind === 'collectionType' && type.info?.pluralName === pluralName) ?? null
  );
}

/** The feed's channel: the configuration's, the type's own over it, else the site's name. */
async function channelOf(
  { settings, config: feeds }: Pick<FeedsServiceDeps, 'settings' | 'config'>,
  type: CollectionType,
  pluralName: string,
  locale: string | null
): Promise<FeedChannel> {
  const { siteName } = await settings.get();
  const configured = { ...feeds.channel, ...feeds.contentTypes[type.uid] };
  const name = type.info?.displayName ?? pluralName;
  const base = settings.publicUrl();
  const selfUrl = `${settings.contentApiUrl()}/speech/feeds/${encodeURIComponent(pluralName)}.xml${locale ? `?locale=${encodeURIComponent(locale)}` : ''}`;
  return {
    title: configured.title ?? (siteName ? `${siteName}: ${name}` : name),
    description: configured.description ?? `${name}, narrated.`,
    link: configured.link ?? base,
    selfUrl,
    language: locale ?? configured.language ?? null,
    author: configured.author ?? (siteName || null),
    imageUrl: configured.imageUrl ?? null,
    category: configured.category ?? null,
    explicit: configured.explicit ?? false,
    podcastGuid: podcastGuid(selfUrl),
    owner: configured.owner ? { name: configured.owner.name ?? null, email: configured.owner.email } : null,
    locked: configured.locked ?? true,
  };
}

/**
 * Audio stored before `audioBytes` existed is measured once, from the file with the local
 * provider; a cloud file would cost a request per item, so its length stays unknown.
 */
async function measureLegacyAudio({ strapi, queue }: Pick<FeedsServiceDeps, 'strapi' | 'queue'>, listed: NarrationRow[]): Promise<void> {
  const uploads = path.resolve(strapi.dirs.static.public);
  for (const row of listed) {
    if (row.audioBytes != null || row.audio?.provider !== 'local') continue;
    try {
      const file = path.resolve(uploads, `.${decodeURIComponent(new URL(row.audio.url, 'http://local').pathname)}`);
      if (!file.startsWith(`${uploads}${path.sep}`)) continue;
      row.audioBytes = (await fs.stat(file)).size;
      await queue.recordAudioBytes(row.id, row.audioBytes);
    } catch (error) {
      strapi.log.warn(`[speech] could not measure the audio of ${row.articleId}: ${(error as Error).message}`);
    }
  }
}

/**
 * An item's guid is the one it was first served under, for the article's whole life: a new take
 * updates the episode (its enclosure, length and duration) instead of announcing another.
 */
async function keepGuids({ queue }: Pick<FeedsServiceDeps, 'queue'>, rows: NarrationRow[]): Promise<void> {
  for (const row of rows) {
    if (row.feedGuid || !row.audio) continue;
    row.feedGuid = await queue.keepFeedGuid(row.id, feedItemGuid(row.articleId, row.audio));
  }
}

/** What the cached feed of a type was built from: its narrations and live entries (how many, their latest write). */
async function stampOf({ queue, content }: Pick<FeedsServiceDeps, 'queue' | 'content'>, uid: string): Promise<string> {
  const [narrations, live] = await Promise.all([queue.reads.changeStamp(uid), content.liveStamp(uid)]);
  return `${narrations}/${live}`;
}

export function createFeedsService(deps: FeedsServiceDeps) {
  const { strapi, settings, config: feeds, content, contentApi, queue } = deps;
  const rows = queue.reads;
  // Keyed by type and locale: feed-locale.ts refuses unknown locales, so the keys are bounded.
  const cache = new LRUCache<string, CachedFeed>({ max: 200 });
  const building = new Map<string, Promise<CachedFeed>>();

  async function isOpen(uid: string): Promise<boolean> {
    if (!feeds.enabled || feeds.contentTypes[uid]?.enabled === false) return false;
    const narrated = (await settings.get()).contentTypes[uid];
    if (!narrated) return false;
    return Boolean(narrated.publicNarration) || contentApi.mayRead(await contentApi.publicAuth(), uid);
  }

  async function itemsOf(uid: string, pluralName: string, locale: string | null): Promise<FeedItem[]> {
    const localized = content.isLocalized(uid);
    const rowLocale = localized ? locale : null;
    const base = settings.contentApiUrl();
    const type = (await settings.get()).contentTypes[uid];
    const fields = itemFields(type);
    const attributeType = (field: string) => content.attributeType(uid, field);
    const items: FeedItem[] = [];
    for (let start = 0; items.length < feeds.limit; start += feeds.limit) {
      const listed = await rows.withAudioNewestFirst(uid, rowLocale, { start, limit: feeds.limit });
      const live = await content.liveEntries(uid, [...new Set(listed.map((row) => row.targetDocumentId))], rowLocale, fields);
      const liveKeys = new Set(live.keys());
      const shown = listed.filter(listedIn(liveKeys, localized));
      const page = shown.slice(0, feeds.limit - items.length);
      await measureLegacyAudio(deps, page);
      await keepGuids(deps, page);
      const alternates = await alternatesOf({ content, rows }, uid, page, base, pluralName);
      for (const row of page) {
        const entry = live.get(documentKey(row.targetDocumentId, localized ? row.targetLocale : null));
        items.push(itemOf(row, { base, pluralName, entry, type, attributeType, alternates: alternates.get(row.targetDocumentId) ?? [] }));
      }
      if (listed.length < feeds.limit) break;
    }
    return items;
  }

  async function build(type: CollectionType, pluralName: string, locale: string | null, stamp: string): Promise<CachedFeed> {
    const body = podcastRss(await channelOf(deps, type, pluralName, locale), await itemsOf(type.uid, pluralName, locale));
    return { body, etag: etagOf(body), stamp, builtAt: Date.now() };
  }

  return {
    async feed(pluralName: string, asked: string | null): Promise<FeedAnswer> {
      const type = collectionType(strapi, pluralName);
      if (!type || !(await isOpen(type.uid))) return { kind: 'not-found', reason: 'No podcast feed for this content type.' };
      const localized = content.isLocalized(type.uid);
      const named = feedLocale(asked, { localized, siteLocales: localized && asked !== null ? await content.siteLocales() : [] });
      if (named.kind === 'no-such-feed') return { kind: 'not-found', reason: named.reason };
      const { locale } = named;
      const key = `${type.uid}|${locale ?? '*'}`;
      const stamp = await stampOf(deps, type.uid);
      const cached = cache.get(key);
      if (cached && cached.stamp === stamp && Date.now() - cached.builtAt < feeds.maxAgeSeconds * 1000)
        return { kind: 'feed', feed: cached };
      let pending = building.get(key);
      if (!pending) {
        pending = build(type, pluralName, locale, stamp).finally(() => building.delete(key));
        building.set(key, pending);
      }
      const built = await pending;
      cache.set(key, built);
      return { kind: 'feed', feed: built };
    },

    /** Only what the feed lists, so an enclosure reveals nothing the feed does not. */
    async enclosure(pluralName: string, articleId: string): Promise<NarrationRow | null> {
      const type = collectionType(strapi, pluralName);
      if (!type || !(await isOpen(type.uid))) return null;
      const row = await rows.findByArticleId(articleId, true);
      if (!row || row.contentType !== type.uid) return null;
      const localized = content.isLocalized(type.uid);
      const live = await content.liveKeys(type.uid, [row.targetDocumentId], localized ? row.targetLocale : null);
      return listedIn(live, localized)(row) ? row : null;
    },

    maxAgeSeconds: feeds.maxAgeSeconds,

    /** The artwork of every feed checked once, in the background: a problem is a warning, never a failed start. */
    checkArtwork(): void {
      const images = configuredArtwork(feeds);
      if (feeds.enabled && images.length) void checkArtwork(images, (message) => strapi.log.warn(message));
    },
  };
}
