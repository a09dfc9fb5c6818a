import { z } from 'zod/v3';
import { contentTypeUidKey, httpUrl, localeCode } from '../utils';

export const feedChannelSchema = z
  .object({
    title: z.string().trim().min(1).max(255).optional(),
    description: z.string().trim().min(1).max(4000).optional(),
    author: z.string().trim().min(1).max(255).optional(),
    /** Apple asks for a square JPEG or PNG of 1400 to 3000 pixels. */
    imageUrl: httpUrl.optional(),
    /** Left out: the server's public URL. */
    link: httpUrl.optional(),
    /** When the feed is not narrowed to one locale. */
    language: localeCode.optional(),
    category: z.string().trim().min(1).max(100).optional(),
    explicit: z.boolean().optional(),
    /** `itunes:owner`; its email is whom a directory asks before moving a locked feed. */
    owner: z
      .object({ name: z.string().trim().min(1).max(255).optional(), email: z.string().trim().email().max(255) })
      .strict()
      .optional(),
    /** `podcast:locked` (only written with an owner); left out: locked. */
    locked: z.boolean().optional(),
  })
  .strict();

export const feedsSchema = z
  .object({
    /** Off: every feed answers 404. */
    enabled: z.boolean().default(true),
    limit: z.number().int().min(1).max(1000).default(300),
    /** Also the longest a built feed is served from memory. */
    maxAgeSeconds: z.number().int().min(0).max(86_400).default(300),
    channel: feedChannelSchema.default({}),
    /** Over `channel`; `enabled: false` closes one type's feed. */
    contentTypes: z.record(contentTypeUidKey, feedChannelSchema.extend({ enabled: z.boolean().optional() }).strict()).default({}),
  })
  .strict();
export type FeedsConfig = z.output<typeof feedsSchema>;

export const feedsConfigShape = {
  feeds: feedsSchema.default({}),
};
