import { z } from 'zod/v3';
import { contentTypeUidKey, httpUrl, localeCode } from '../utils';

/** What a podcast feed says about itself (RSS channel, iTunes tags); every key may be left out. */
export const feedChannelSchema = z
  .object({
    title: z.string().trim().min(1).max(255).optional(),
    description: z.string().trim().min(1).max(4000).optional(),
    author: z.string().trim().min(1).max(255).optional(),
    /** The show's artwork (`itunes:image`): Apple asks for a square JPEG or PNG of 1400 to 3000 pixels. */
    imageUrl: httpUrl.optional(),
    /** The site the feed belongs to (the channel's `link`); left out: the server's public URL. */
    link: httpUrl.optional(),
    /** The channel's language when the feed is not narrowed to one locale (`?locale=` sets it otherwise). */
    language: localeCode.optional(),
    /** An Apple Podcasts category, such as "News" or "Technology". */
    category: z.string().trim().min(1).max(100).optional(),
    explicit: z.boolean().optional(),
  })
  .strict();
export type FeedChannelConfig = z.infer<typeof feedChannelSchema>;

/** Podcast feeds of narrated types (`GET /api/speech/feeds/:pluralName.xml`). */
export const feedsSchema = z
  .object({
    /** Off: every feed answers 404. */
    enabled: z.boolean().default(true),
    /** Items per feed, newest first. */
    limit: z.number().int().min(1).max(1000).default(300),
    /** `Cache-Control: max-age` of a feed, and the longest a built feed is served from memory. */
    maxAgeSeconds: z.number().int().min(0).max(86_400).default(300),
    /** Defaults for every feed. */
    channel: feedChannelSchema.default({}),
    /** Per type, over `channel`; `enabled: false` closes one type's feed. */
    contentTypes: z.record(contentTypeUidKey, feedChannelSchema.extend({ enabled: z.boolean().optional() }).strict()).default({}),
  })
  .strict();
export type FeedsConfig = z.output<typeof feedsSchema>;

/** The feeds' slice of the configuration. */
export const feedsConfigShape = {
  /** Podcast feeds: channel details, item limit, caching. */
  feeds: feedsSchema.default({}),
};
