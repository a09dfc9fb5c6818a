/**
 * Settings -> Speech (server/src/settings): GET and PUT /speech/settings, GET
 * /speech/narrated-types, POST /speech/connection/test. Plain types and constants, imported by
 * the server and the admin alike.
 */
import type { FieldError, QueueState } from './common';
import type { LexiconRule, LexiconRuleInput } from './lexicon';
import type { BudgetSettings } from './usage';
import type { VoiceCheck } from './voices';
import type { TypeVerification, VerificationSettings } from './verification';

/** The two text preparation modes the service accepts (spec 2.2). Always strings on the wire. */
export type PreprocessType = '0' | '2';

/**
 * Only the strings "0" and "2". The bare numbers 0 and 2 are rejected on purpose: the service
 * refuses a JSON number here during text processing (spec 2.2), i.e. after it has accepted the
 * request, so letting one through would surface as a late, confusing failure.
 */
export function isPreprocessType(value: unknown): value is PreprocessType {
  return value === '0' || value === '2';
}

/** When a type is narrated: on publish, on save (types without draft & publish), or never. */
export const NARRATION_TRIGGERS = ['publish', 'save', 'off'] as const;
export type NarrationTrigger = (typeof NARRATION_TRIGGERS)[number];

/**
 * How a type is narrated: in one request per article ('whole', the default), or cut into parts
 * narrated one by one and joined, so that an edit pays only for the parts it changed.
 */
export const NARRATION_MODES = ['whole', 'segmented'] as const;
export type NarrationMode = (typeof NARRATION_MODES)[number];

/**
 * The longest part of a segmented narration, in characters (code points, as the service counts).
 * The default keeps an edit's cost to about one part of some 900 characters on average (parts
 * average about half the maximum: text/segments.ts) and a part well under the
 * service's unpublished limit. The minimum still holds an ordinary sentence, so parts are cut at
 * sentence ends, not inside sentences; the maximum is the longest text the emulator takes in one
 * request, beyond which segmenting would leave ordinary articles whole.
 */
export const DEFAULT_SEGMENT_CHARACTERS = 2_000;
export const MIN_SEGMENT_CHARACTERS = 200;
export const MAX_SEGMENT_CHARACTERS = 100_000;

/** Blocks a narration can leave out (server/src/text/). */
export const SKIPPABLE_BLOCKS = ['code', 'quote', 'image', 'table'] as const;
export type SkippableBlock = (typeof SKIPPABLE_BLOCKS)[number];

/** The key of intro and outro templates read for every locale without its own. */
export const ALL_LOCALES = '*';

/** How one content type is narrated. */
export interface TypeSettings {
  titleField?: string;
  textFields: string[];
  trigger?: NarrationTrigger;
  /** Narrations of this type served to anyone (set in the configuration file only). */
  publicNarration?: boolean;
  /** Left out of the narration (an image block is read by its caption unless skipped). */
  skipBlocks?: SkippableBlock[];
  /** The text field `{author}` reads in intro and outro templates. */
  authorField?: string;
  /** Left out: 'whole'. The settings in effect always say. */
  narrationMode?: NarrationMode;
  /**
   * The longest part when segmented; left out: the global `segmentCharacters`. Null: cleared from
   * the admin (over a size the configuration file gives the type), the global one applies too.
   */
  segmentCharacters?: number | null;
  /** Check each stored narration of this type by the service's speech to text (docs/verification.md). */
  verify?: boolean;
  /** What a mismatch does for this type (`onMismatch`, left out: 'flag'). */
  verification?: TypeVerification;
  /**
   * Each paragraph read in its own language's voice, quotes in the quote voice (docs/passage-voices.md).
   * A public contract: other implementations of the service check the plugin through this name.
   */
  passageVoices?: boolean;
  /** The entry's page on the site, `https://example.com/news/{slug}` ({locale} and fields): feed links, JSON-LD, oEmbed. A public contract. */
  url?: string;
  /** The field that summarises an entry: a feed item's description. A public contract. */
  summary?: { field: string };
}

/**
 * What the configuration file gives a type of the fields a saved entry may leave out, the file's
 * then applying (server/src/narration/config.ts, typesOverFile): what the settings page shows but need not
 * send back.
 */
export type FileTypeSettings = Pick<
  TypeSettings,
  'skipBlocks' | 'authorField' | 'narrationMode' | 'segmentCharacters' | 'verify' | 'verification' | 'passageVoices'
>;

/** The settings in effect: the configuration file, overridden by what was saved from the admin. */
export interface SpeechSettings {
  defaultVoiceId: string;
  /** The voice of each locale's articles (an entry's own voice still wins); absent locales use the default. */
  localeVoices: Record<string, string>;
  /** The voice that reads quotes of each locale's articles, for types with passage voices (a public contract); absent: the article's voice. */
  quoteVoices: Record<string, string>;
  preprocessType: PreprocessType;
  contentTypes: Record<string, TypeSettings>;
  /** Pronunciation rules. */
  lexicon: LexiconRule[];
  /** `{site}` in intro and outro templates. */
  siteName: string;
  /** Read before / after every article, by locale code or ALL_LOCALES for every locale without its own. */
  introTemplates: Record<string, string>;
  outroTemplates: Record<string, string>;
  /** The longest part of a segmented narration, for every type without its own. */
  segmentCharacters: number;
  /** The monthly credit budget (shared/contracts/usage.ts); `budget.monthlyCredits` is a public contract. */
  budget: BudgetSettings;
  /** How narrations of the types that verify are checked (shared/contracts/verification.ts). */
  verification: VerificationSettings;
}

/** What the admin may change: any subset; each map given replaces the saved one whole; `budget` and `verification` keys are changed one by one. */
export type SettingsChanges = Partial<
  Omit<SpeechSettings, 'lexicon' | 'budget' | 'verification'> & {
    lexicon: LexiconRuleInput[];
    budget: Partial<BudgetSettings>;
    verification: Partial<VerificationSettings>;
  }
>;

/** Optional capabilities the server announces (the admin hides what is off). */
export interface ServerFeatures {
  voicePreview: boolean;
  transcription: boolean;
}

/** A site content type as the settings page offers it. */
export interface ContentTypeDescription {
  uid: string;
  displayName: string;
  kind: 'collectionType' | 'singleType';
  draftAndPublish: boolean;
  localized: boolean;
  /** Text fields that are not private: the only ones a narration may read. */
  fields: Array<{ name: string; type: string }>;
}

/** How the server reaches the speech service (never the API key itself). */
export interface ConnectionInfo {
  apiKeyConfigured: boolean;
  baseUrl: string;
  webUrl: string;
  callbackUrl: string;
  voiceSource: 'service' | 'config';
}

/** GET /speech/settings (`settings.read`). */
export interface GetSettingsResponse {
  settings: SpeechSettings;
  contentTypes: ContentTypeDescription[];
  /** The site's i18n locales. */
  locales: string[];
  /** The voice each locale is read in and whether it speaks another language; null when no voice applies. */
  localeVoiceChecks: Record<string, VoiceCheck | null>;
  connection: ConnectionInfo;
  queue: QueueState;
  /** Average narrated characters per content type (latest narrations), for the cost preview. */
  averages: Record<string, { articles: number; characters: number }>;
  features: ServerFeatures;
  /**
   * Every type of the configuration file with its values of the fields above (only those: the rest
   * of the file is not the admin's to read). The page sends a type's field back only where it
   * differs from the file's, so a value the file gives stays the file's (a copy saved from the page
   * would pin it against later changes of the file). Left out by older servers: the page then sends
   * the fields as shown.
   */
  fileContentTypes?: Record<string, FileTypeSettings>;
}

/** PUT /speech/settings (`settings.update`). */
export interface UpdateSettingsRequest {
  body: SettingsChanges;
}

export interface UpdateSettingsResponse {
  settings: SpeechSettings;
}

/** The `details` of the 400 a refused PUT /speech/settings answers: every refused value. */
export interface UpdateSettingsErrorDetails {
  errors: FieldError[];
}

/** GET /speech/narrated-types: readable by every logged-in admin, not only settings readers. */
export interface GetNarratedTypesResponse {
  contentTypes: Record<string, Pick<TypeSettings, 'trigger'>>;
  features: ServerFeatures;
}

/** POST /speech/connection/test: the voice list is the cheapest authenticated call that costs no credits. */
export type TestConnectionResponse = { ok: true; voices: number } | { ok: false; code: string; message: string };
