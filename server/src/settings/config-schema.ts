import { z } from 'zod/v3';
import type { ArticleFields } from '../narration/domain/article';
import type { NarrationModeChoice } from '../narration/domain/segments';
import {
  ALL_LOCALES,
  DEFAULT_SEGMENT_CHARACTERS,
  MAX_SEGMENT_CHARACTERS,
  MIN_SEGMENT_CHARACTERS,
  NARRATION_MODES,
  NARRATION_TRIGGERS,
  SKIPPABLE_BLOCKS,
  type NarrationTrigger,
} from '../../../shared/contracts/settings';
import { MAX_TEMPLATE_LENGTH, templateProblem } from '../narration/domain/templates';
import { isTimeZone } from '../credits/domain/calendar';

/**
 * The plugin's configuration (`config/plugins.ts` -> `speech.config`).
 * Parsed once at start: a bad value stops Strapi with a message that names the key,
 * rather than failing later on the first publish.
 */

const segmentCharactersRange = `must be a whole number of characters from ${MIN_SEGMENT_CHARACTERS} to ${MAX_SEGMENT_CHARACTERS}`;

/** The longest part of a segmented narration (shared/contracts/settings.ts says why these bounds). */
export const segmentCharacters = z
  .number()
  .int(segmentCharactersRange)
  .min(MIN_SEGMENT_CHARACTERS, segmentCharactersRange)
  .max(MAX_SEGMENT_CHARACTERS, segmentCharactersRange);

export const contentTypeNarrationSchema = z
  .object({
    titleField: z.string().min(1).optional(),
    textFields: z.array(z.string().min(1)).min(1, 'name at least one text field'),
    /**
     * Left out: the type decides (published for draft & publish types, saved otherwise). 'off'
     * keeps the settings but narrates nothing; a value that cannot fire for the type is refused.
     */
    trigger: z.enum(NARRATION_TRIGGERS).optional(),
    /**
     * Serve this type's narrations to anyone, even where the content API keeps the type closed
     * (public audio of members-only text). Off: a narration is visible exactly where its entry is.
     */
    publicNarration: z.boolean().optional(),
    /** Kinds of block not read, on top of the chosen fields; left out: every kind is read as before. */
    skipBlocks: z.array(z.enum(SKIPPABLE_BLOCKS)).max(SKIPPABLE_BLOCKS.length).optional(),
    /** The text field `{author}` reads in intro and outro templates. */
    authorField: z.string().min(1).optional(),
    /** Left out: 'whole' (one request per article). 'segmented': in parts, an edit paying only for the parts it changed. */
    narrationMode: z.enum(NARRATION_MODES).optional(),
    /** The longest part of this type when segmented; left out: the global segmentCharacters. */
    segmentCharacters: segmentCharacters.optional(),
  })
  .strict() satisfies z.ZodType<ArticleFields & { trigger?: NarrationTrigger } & NarrationModeChoice, z.ZodTypeDef, unknown>;
export type ContentTypeNarrationConfig = z.infer<typeof contentTypeNarrationSchema>;

/** A locale code as Strapi's i18n writes them: `en`, `ar`, `fr-FR`, `zh-Hans`, `es-419`. */
export const localeCode = z.string().regex(/^[a-z]{2,3}(?:-[a-z0-9]{2,8})*$/i, 'must be a locale code such as "ar" or "fr-FR"');

/** A voice id as sent to the service: non-empty, no surrounding spaces. */
export const voiceId = z.string().trim().min(1, 'must name a voice').max(200);

/** Default voice per locale (`{ ar: 'ar-female-1' }`): an article in that locale is read in it unless it has its own. */
export const localeVoicesSchema = z.record(localeCode, voiceId).refine((map) => Object.keys(map).length <= 500, 'at most 500 locales');

/** Intro or outro templates by locale code, or `*` for every locale without its own (narration/templates.ts). */
export const templatesSchema = z.record(
  z.union([z.literal(ALL_LOCALES), localeCode]),
  z
    .string()
    .max(MAX_TEMPLATE_LENGTH, `a template may have at most ${MAX_TEMPLATE_LENGTH} characters`)
    .superRefine((text, ctx) => {
      const problem = templateProblem(text);
      if (problem) ctx.addIssue({ code: z.ZodIssueCode.custom, message: problem });
    })
);

/** The site's name as `{site}` reads it. */
export const siteName = z.string().trim().max(200);

const voiceSchema = z.object({
  id: z.string().min(1),
  name: z.string().min(1),
  language: z.string().optional(),
  gender: z.string().optional(),
});

const httpUrl = z
  .string()
  .url()
  .refine((value) => /^https?:\/\//i.test(value), 'must be an http(s) URL');

/** An allow-listed media origin: a bare host (https only) or an origin with an explicit scheme. */
const mediaHost = z
  .string()
  .min(1)
  .refine(
    (value) => /^https?:\/\/[^/\s]+\/?$/i.test(value) || /^[a-z0-9.-]+(:\d+)?$/i.test(value),
    'must be a host name ("cdn.example.com") or an origin ("http://127.0.0.1:4010")'
  );

/** A site content type's uid, as the `contentTypes` map and the feeds' are keyed. */
const contentTypeUidKey = z
  .string()
  .regex(/^[a-z0-9-]+::[a-z0-9-]+\.[a-z0-9-]+$/i, 'must be a content-type uid such as api::article.article');

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

/**
 * Listening insights (issue 25): the player's events and the feeds' downloads, counted as daily
 * totals per narration (server/src/insights). Off: the events route answers 204 and counts nothing.
 */
export const insightsSchema = z
  .object({
    enabled: z.boolean().default(true),
    /** How often the counts kept in memory are written to the database (and when Strapi stops). */
    flushSeconds: z.number().int().min(1).max(300).default(5),
    /** Days a narration's daily totals are kept. */
    retentionDays: z.number().int().min(1).max(3660).default(400),
  })
  .strict();
export type InsightsConfig = z.output<typeof insightsSchema>;

/** A monthly credit budget: a whole number of credits, or null for none. */
const monthlyCredits = z.number().int('must be a whole number of credits').min(0, 'must be 0 or more credits').max(Number.MAX_SAFE_INTEGER);

/** The IANA zone whose calendar the budget counts months and days in. */
export const timeZone = z.string().refine(isTimeZone, 'must be an IANA time zone such as "UTC" or "Asia/Amman"');

/**
 * The monthly credit budget (issue 24; `monthlyCredits` is a public contract). Left out: no limit,
 * months and days in UTC. A type's own limit counts its narrations only, within the site's.
 */
export const budgetConfigSchema = z
  .object({
    monthlyCredits: monthlyCredits.nullable().default(null),
    timeZone: timeZone.default('UTC'),
    contentTypes: z.record(contentTypeUidKey, monthlyCredits).default({}),
  })
  .strict();

/** The budget as `PUT /speech/settings` changes it: any of its keys; `contentTypes`, when given, replaces the saved map. */
export const budgetChangesSchema = z
  .object({
    monthlyCredits: monthlyCredits.nullable(),
    timeZone,
    contentTypes: z.record(contentTypeUidKey, monthlyCredits),
  })
  .partial()
  .strict();

export const pluginConfigSchema = z
  .object({
    /** Company API key. Empty means narration is paused with a configuration error; Strapi still starts. */
    apiKey: z.string().default(''),
    /** Host of the article endpoint (POST /process-text). */
    baseUrl: httpUrl,
    /** Host of the STT and TTS endpoints; a different host from baseUrl on the real service. */
    webUrl: httpUrl,
    /** Where the service POSTs results. Empty: the server's public URL + /api/speech/callback. */
    callbackUrl: z.union([httpUrl, z.literal('')]).default(''),
    contentTypes: z.record(contentTypeUidKey, contentTypeNarrationSchema).default({}),
    defaultVoiceId: z.string().default(''),
    localeVoices: localeVoicesSchema.default({}),
    /** `{site}` in intro and outro templates. */
    siteName: siteName.default(''),
    /** Read before every article (per locale, `*` for all): `{title}`, `{author}`, `{site}`. None by default. */
    introTemplates: templatesSchema.default({}),
    /** Read after every article, like introTemplates. */
    outroTemplates: templatesSchema.default({}),
    /** Sent as a JSON string: the service rejects the bare numbers 0 and 2. */
    preprocessType: z.enum(['0', '2']).default('0'),
    /** The longest part of a segmented narration, for every type without its own. */
    segmentCharacters: segmentCharacters.default(DEFAULT_SEGMENT_CHARACTERS),
    /** Articles awaiting a callback at once, account-wide (spec section 8 recommends about three). */
    maxInFlight: z.number().int().min(1).max(50).default(3),
    /** Hosts the MP3 and SRT may be downloaded from. Empty: the origins of baseUrl and webUrl. */
    mediaHosts: z.array(mediaHost).default([]),
    maxAudioBytes: z
      .number()
      .int()
      .positive()
      .default(200 * 1024 * 1024),
    maxSubtitleBytes: z
      .number()
      .int()
      .positive()
      .default(5 * 1024 * 1024),
    downloadTimeoutMs: z.number().int().positive().default(120_000),
    /** Without a callback after this long, resubmit with regenerate false (free re-delivery). */
    callbackTimeoutMs: z
      .number()
      .int()
      .positive()
      .default(15 * 60_000),
    /**
     * How long an empty result that answers the free check of a callback without files is held
     * before it counts as a failure: audio re-delivered meanwhile wins (a replay came first).
     */
    noAudioGraceMs: z.number().int().positive().default(60_000),
    /** Submissions per article version before it is marked failed. */
    maxAttempts: z.number().int().min(1).max(20).default(3),
    /** How long a 402 pause lasts before the queue probes the balance again. */
    creditsPauseMs: z
      .number()
      .int()
      .positive()
      .default(10 * 60_000),
    /** Worker tick. */
    pollIntervalMs: z.number().int().min(50).default(2_000),
    /**
     * How often live entries are checked for a publish whose narration was never recorded (the
     * database went away right after Strapi's commit, or the process died there). Also at start.
     */
    reconcileIntervalMs: z
      .number()
      .int()
      .min(1_000)
      .default(5 * 60_000),
    /** How old a publish must be before the reconciliation looks at it (its own recording, and slower transactions, come first). */
    reconcileSettleMs: z
      .number()
      .int()
      .min(0)
      .default(2 * 60_000),
    /** How long a claimed narration is held by one instance before another may take it over. */
    leaseMs: z.number().int().min(1_000).default(60_000),
    /** Timeout of a single request to the speech service. */
    requestTimeoutMs: z.number().int().positive().default(30_000),
    /** Speech to text: the spec's reference client polls every 5 s (section 3.2). */
    sttPollIntervalMs: z.number().int().min(50).default(5_000),
    /** A transcription still queued or processing after this long is given up as failed. */
    sttMaxWaitMs: z
      .number()
      .int()
      .min(1_000)
      .default(24 * 60 * 60_000),
    /** Voice source: the service's voice endpoint, or the list below. */
    voiceSource: z.enum(['service', 'config']).default('service'),
    voicesPath: z.string().startsWith('/').default('/api/v1/voices'),
    voices: z.array(voiceSchema).default([]),
    /** Run the queue worker in this instance (turn off on instances that should only serve). */
    worker: z.boolean().default(true),
    /** Podcast feeds: channel details, item limit, caching. */
    feeds: feedsSchema.default({}),
    /** The monthly credit budget and the calendar it counts in. */
    budget: budgetConfigSchema.default({}),
    /** Listening insights from the player and the feeds. */
    insights: insightsSchema.default({}),
  })
  .strict();

export type PluginConfigInput = z.input<typeof pluginConfigSchema>;
export type PluginConfig = z.output<typeof pluginConfigSchema>;

/** One bad value: where it is in the plugin's config (`['contentTypes', uid, 'textFields', '0']`) and what is wrong. */
export interface ConfigProblem {
  path: ReadonlyArray<string | number>;
  message: string;
}

/**
 * "<prefix><key>: <message>" lines, so the offending key is obvious. The config file's errors
 * carry the `speech.config.` prefix; the settings route's 400 names the same keys without it.
 */
export function describeConfigProblems(problems: readonly ConfigProblem[], prefix = 'speech.config.'): string {
  return problems.map((problem) => `${prefix}${problem.path.length ? problem.path.join('.') : '(root)'}: ${problem.message}`).join('\n');
}

/** zod's issues as config problems (an unknown key is named as such). */
export function configIssues(error: z.ZodError): ConfigProblem[] {
  return error.issues.map((issue) => ({
    path: issue.path,
    message: issue.code === 'unrecognized_keys' ? `unknown key(s) ${issue.keys.join(', ')}` : issue.message,
  }));
}

/** Formats zod issues as "speech.config.<key>: <message>" lines. */
export function describeConfigIssues(error: z.ZodError, prefix?: string): string {
  return describeConfigProblems(configIssues(error), prefix);
}

/** The error that stops Strapi at start: every problem of the config file, one line each. */
export function invalidConfigError(problems: readonly ConfigProblem[]): Error {
  return new Error(`Invalid configuration of the speech plugin:\n${describeConfigProblems(problems)}`);
}

export function parsePluginConfig(raw: unknown): PluginConfig {
  const result = pluginConfigSchema.safeParse(raw);
  if (!result.success) throw invalidConfigError(configIssues(result.error));
  return result.data;
}
