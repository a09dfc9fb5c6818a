import { z } from 'zod/v3';
import {
  ALL_LOCALES,
  DEFAULT_SEGMENT_CHARACTERS,
  MAX_SEGMENT_CHARACTERS,
  MIN_SEGMENT_CHARACTERS,
  NARRATION_MODES,
  NARRATION_TRIGGERS,
  SKIPPABLE_BLOCKS,
  type TypeSettings,
  type NarrationTrigger,
  type SpeechSettings,
} from '../../../shared/contracts/settings';
import { VERIFICATION_ON_MISMATCH } from '../../../shared/contracts/verification';
import { contentTypeUidKey, localeCode } from '../utils';
import type { ArticleFields } from './domain/article';
import { narrationModeOf, type NarrationModeChoice } from './domain/segments';
import { MAX_TEMPLATE_LENGTH, templateProblem } from './domain/templates';
import { urlTemplateProblem } from './domain/front-end-url';
import { effectiveTrigger } from './domain/triggers';

const segmentCharactersRange = `must be a whole number of characters from ${MIN_SEGMENT_CHARACTERS} to ${MAX_SEGMENT_CHARACTERS}`;

/** The longest part of a segmented narration (shared/contracts/settings.ts says why these bounds). */
export const segmentCharacters = z
  .number()
  .int(segmentCharactersRange)
  .min(MIN_SEGMENT_CHARACTERS, segmentCharactersRange)
  .max(MAX_SEGMENT_CHARACTERS, segmentCharactersRange);

export const typeSettingsSchema = z
  .object({
    titleField: z.string().min(1).optional(),
    textFields: z
      .array(z.string().min(1))
      .min(1, 'name at least one text field')
      .refine(
        (fields) => new Set(fields).size === fields.length,
        'name each text field once (a field named twice is read, and paid for, twice)'
      ),
    /** Left out: the type decides (publish or save); a value that cannot fire for the type is refused. */
    trigger: z.enum(NARRATION_TRIGGERS).optional(),
    /** Public audio of members-only text. Off: a narration is visible exactly where its entry is. */
    publicNarration: z.boolean().optional(),
    /** Kinds of block not read, on top of the chosen fields; left out: every kind is read as before. */
    skipBlocks: z.array(z.enum(SKIPPABLE_BLOCKS)).max(SKIPPABLE_BLOCKS.length).optional(),
    authorField: z.string().min(1).optional(),
    /** Left out: 'whole' (one request per article). 'segmented': in parts, an edit paying only for the parts it changed. */
    narrationMode: z.enum(NARRATION_MODES).optional(),
    /** The longest part of this type when segmented; left out: the global segmentCharacters. */
    segmentCharacters: segmentCharacters.optional(),
    verify: z.boolean().optional(),
    passageVoices: z.boolean().optional(),
    url: z
      .string()
      .max(2000)
      .superRefine((template, ctx) => {
        const problem = urlTemplateProblem(template);
        if (problem) ctx.addIssue({ code: z.ZodIssueCode.custom, message: problem });
      })
      .optional(),
    summary: z
      .object({ field: z.string().min(1) })
      .strict()
      .optional(),
    /** What a mismatch does for this type: 'flag' (left out) or 'regenerate' the article once, paid. */
    verification: z
      .object({ onMismatch: z.enum(VERIFICATION_ON_MISMATCH).optional() })
      .strict()
      .optional(),
  })
  .strict() satisfies z.ZodType<ArticleFields & { trigger?: NarrationTrigger } & NarrationModeChoice, z.ZodTypeDef, unknown>;
export type ContentTypeNarrationConfig = z.infer<typeof typeSettingsSchema>;

/** `segmentCharacters: null` clears the type's own part size (the global one applies, over the file's). */
export const runtimeContentTypeSchema = typeSettingsSchema.extend({
  segmentCharacters: segmentCharacters.nullable().optional(),
}) satisfies z.ZodType<TypeSettings, z.ZodTypeDef, unknown>;
export type RuntimeTypeSettings = z.infer<typeof runtimeContentTypeSchema>;

/** Intro or outro templates by locale code, or `*` for every locale without its own (narration/domain/templates.ts). */
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

export const siteName = z.string().trim().max(200);

const preprocessType = z.enum(['0', '2']);

export const narrationConfigShape = {
  contentTypes: z.record(contentTypeUidKey, typeSettingsSchema).default({}),
  siteName: siteName.default(''),
  /** Read before every article (per locale, `*` for all): `{title}`, `{author}`, `{site}`. None by default. */
  introTemplates: templatesSchema.default({}),
  outroTemplates: templatesSchema.default({}),
  /** Sent as a JSON string: the service rejects the bare numbers 0 and 2. */
  preprocessType: preprocessType.default('0'),
  segmentCharacters: segmentCharacters.default(DEFAULT_SEGMENT_CHARACTERS),
  /** Catches a publish whose recording was lost (the database went away right after Strapi's commit). */
  reconcileIntervalMs: z
    .number()
    .int()
    .min(1_000)
    .default(5 * 60_000),
  /** Its own recording, and slower transactions, come first. */
  reconcileSettleMs: z
    .number()
    .int()
    .min(0)
    .default(2 * 60_000),
};
export type NarrationConfig = z.output<z.ZodObject<typeof narrationConfigShape>>;

/** What an editor may change of narration in Settings -> Speech; each map given replaces the saved one whole. */
export const narrationSettingsShape = {
  preprocessType,
  /** Replaces the saved map; a type's `segmentCharacters: null` clears its own size. */
  contentTypes: z.record(z.string(), runtimeContentTypeSchema),
  siteName,
  introTemplates: templatesSchema,
  outroTemplates: templatesSchema,
  segmentCharacters,
};
export type NarrationSettings = Partial<z.output<z.ZodObject<typeof narrationSettingsShape>>>;

/**
 * A saved entry replaces the file's but keeps what it leaves out of it (`publicNarration`, or what it
 * predates). A saved `segmentCharacters: null` stays null: the global size applies.
 */
export function typesOverFile(
  file: Readonly<Record<string, ContentTypeNarrationConfig>>,
  saved: Readonly<Record<string, RuntimeTypeSettings>>
): Record<string, RuntimeTypeSettings> {
  const types: Record<string, RuntimeTypeSettings> = { ...file };
  for (const [uid, type] of Object.entries(saved)) {
    const fromFile = file[uid];
    const kept = {
      publicNarration: fromFile?.publicNarration,
      skipBlocks: fromFile?.skipBlocks,
      authorField: fromFile?.authorField,
      narrationMode: fromFile?.narrationMode,
      segmentCharacters: fromFile?.segmentCharacters,
      verify: fromFile?.verify,
      verification: fromFile?.verification,
      passageVoices: fromFile?.passageVoices,
      url: fromFile?.url,
      summary: fromFile?.summary,
    };
    types[uid] = { ...kept, ...type };
  }
  return types;
}

type NarrationInEffect = Pick<
  SpeechSettings,
  'preprocessType' | 'contentTypes' | 'siteName' | 'introTemplates' | 'outroTemplates' | 'segmentCharacters'
>;

/** A type's cleared segmentCharacters stays left out, so the admin sending the type back does not pin it. */
export function narrationInEffect(
  file: NarrationConfig,
  saved: NarrationSettings,
  hasDraftAndPublish: (uid: string) => boolean
): NarrationInEffect {
  const types = typesOverFile(file.contentTypes, saved.contentTypes ?? {});
  return {
    preprocessType: saved.preprocessType ?? file.preprocessType,
    contentTypes: Object.fromEntries(
      Object.entries(types).map(([uid, type]) => [
        uid,
        { ...type, trigger: effectiveTrigger(type.trigger, hasDraftAndPublish(uid)), narrationMode: narrationModeOf(type) },
      ])
    ),
    siteName: saved.siteName ?? file.siteName,
    introTemplates: saved.introTemplates ?? file.introTemplates,
    outroTemplates: saved.outroTemplates ?? file.outroTemplates,
    segmentCharacters: saved.segmentCharacters ?? file.segmentCharacters,
  };
}

/** The player's "AI voice" label (domain/ai-label.ts). */
export const playerConfigShape = {
  player: z
    .object({
      /**
       * Over the defaults, by locale. `false` hides the label, and only this file can: docs/playing.md
       * says what Article 50 of the EU AI Act asks first.
       */
      aiLabel: z.union([z.literal(false), z.record(z.union([z.literal('*'), localeCode]), z.string().trim().min(1).max(60))]).default({}),
    })
    .strict()
    .default({}),
};
