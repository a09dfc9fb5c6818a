/**
 * Shapes of the plugin's admin routes (server/src/controllers/admin-*.ts). Kept by hand: the admin
 * bundle must not import server code.
 */

export type PreprocessType = '0' | '2';
export type NarrationTrigger = 'publish' | 'save' | 'off';

/** Blocks a narration can leave out (server/src/narration/text.ts). */
export const SKIPPABLE_BLOCKS = ['code', 'quote', 'image', 'table'] as const;
export type SkippableBlock = (typeof SKIPPABLE_BLOCKS)[number];

export interface ContentTypeNarration {
  titleField?: string;
  textFields: string[];
  trigger?: NarrationTrigger;
  /** Left out of the narration (an image block is read by its caption unless skipped). */
  skipBlocks?: SkippableBlock[];
  /** The text field `{author}` reads in intro and outro templates. */
  authorField?: string;
}

/** GET /speech/narrated-types: readable by every logged-in admin, not only settings readers. */
export interface NarratedTypesResponse {
  contentTypes: Record<string, Pick<ContentTypeNarration, 'trigger'>>;
  features?: { voicePreview?: boolean; transcription?: boolean };
}

export interface SpeechSettings {
  defaultVoiceId: string;
  /** The voice of each locale's articles (an entry's own voice still wins); absent locales use the default. */
  localeVoices?: Record<string, string>;
  preprocessType: PreprocessType;
  contentTypes: Record<string, ContentTypeNarration>;
  /** Pronunciation rules (newer servers). */
  lexicon?: LexiconRule[];
  /** `{site}` in intro and outro templates. */
  siteName?: string;
  /** Read before / after every article, by locale code or `*` for every locale without its own. */
  introTemplates?: Record<string, string>;
  outroTemplates?: Record<string, string>;
}

/** A pronunciation rule (server/src/narration/lexicon.ts): `term` is read as `spoken`. */
export interface LexiconRule {
  term: string;
  spoken: string;
  /** A locale code, or null for every locale. */
  locale: string | null;
  wholeWord?: boolean;
  caseSensitive?: boolean;
  /** Arabic: match the term with or without its short vowels. */
  ignoreDiacritics?: boolean;
  /** Arabic: alif, ya and ta marbuta forms match each other. */
  letterVariants?: boolean;
}

/**
 * POST /speech/lexicon/affected: of one page of a type's published documents, those the current
 * lexicon would change since their last narration, and what narrating them again would cost.
 * `total` and `pageCount` count the published documents looked through, not the affected ones.
 */
export interface LexiconAffectedResponse {
  items: Array<{ documentId: string; locale: string | null; articleId: string; title: string | null; characters: number; credits: number }>;
  totalCredits: number;
  page: number;
  pageSize: number;
  pageCount: number;
  total: number;
  /** Documents of the page the caller may not read (left out). */
  refused: number;
}

/** A voice and its language as the voice list gives it; `mismatch` when that differs from the article's locale. */
export interface VoiceCheck {
  id: string;
  language: string | null;
  mismatch: boolean;
}

export interface ContentTypeDescription {
  uid: string;
  displayName: string;
  kind?: 'collectionType' | 'singleType';
  draftAndPublish: boolean;
  localized: boolean;
  fields: Array<{ name: string; type: string }>;
}

export interface ConnectionInfo {
  apiKeyConfigured: boolean;
  baseUrl: string;
  webUrl: string;
  callbackUrl: string;
  voiceSource: 'service' | 'config';
}

export interface QueueState {
  paused: boolean;
  pausedUntil: string | null;
  pauseCode: string | null;
  pauseReason: string | null;
  creditsRemaining: number | null;
  creditsRequired: number | null;
  creditsSeenAt: string | null;
}

export interface SettingsResponse {
  settings: SpeechSettings;
  contentTypes: ContentTypeDescription[];
  connection: ConnectionInfo;
  queue: QueueState;
  averages: Record<string, { articles: number; characters: number }>;
  /** Optional capabilities announced by the server (absent means off). */
  features?: { voicePreview?: boolean; transcription?: boolean };
  /** The site's i18n locales (newer servers). */
  locales?: string[];
  /** The voice each locale is read in and whether it speaks another language; null when no voice applies. */
  localeVoiceChecks?: Record<string, VoiceCheck | null>;
}

export interface Voice {
  id: string;
  name: string;
  language?: string;
  gender?: string;
}

export type ConnectionTestResult = { ok: true; voices: number } | { ok: false; code: string; message: string };

export interface CostBreakdown {
  characters: number;
  multiplier: 1 | 2;
  credits: number;
}

export interface CostResponse {
  verbatim: CostBreakdown;
  preprocessed: CostBreakdown;
}

export interface Estimate {
  articleId: string;
  characters: number;
  credits: number;
  preprocessType: PreprocessType;
  voiceId: string;
  unchanged: boolean;
  /** The article's own voice when an editor chose one (newer servers); otherwise inferred. */
  voiceOverride?: string | null;
  /** The voice's language against the article's locale (newer servers). */
  voice?: VoiceCheck;
}

/** POST /speech/narrations/paragraphs (mirrors the server's narration service). */
export interface ParagraphsResponse {
  articleId: string;
  voiceId: string;
  paragraphs: Array<{ index: number; text: string; characters: number }>;
}

export interface EstimateManyResponse {
  items: Array<Estimate & { documentId: string }>;
  toSubmit: number;
  skipped: number;
  totalCredits: number;
  /** Entries the signed-in admin may not narrate (Content Manager permissions): left out. */
  refused?: string[];
  /** Entries that would be submitted in a voice of another language (newer servers). */
  voiceMismatches?: number;
}

export interface NarrateResult {
  articleId: string;
  queued: boolean;
  reason?: string;
}

export interface NarrateManyResponse {
  results: NarrateResult[];
  queued: number;
  refused?: string[];
}

export type NarrationStatus = 'queued' | 'submitting' | 'awaiting_callback' | 'storing' | 'completed' | 'failed' | 'cancelled';

export interface MediaRef {
  id: number;
  url: string;
}

export interface NarrationView {
  articleId: string;
  documentId: string;
  locale: string | null;
  contentType: string;
  status: NarrationStatus;
  title: string | null;
  voiceId: string | null;
  preprocessType: PreprocessType | null;
  characters: number | null;
  credits: number | null;
  attempts: number;
  regenerate: boolean;
  lastError: string | null;
  lastErrorCode: string | null;
  creditsMayBeLost: boolean;
  nextAttemptAt: string | null;
  submittedAt: string | null;
  completedAt: string | null;
  updatedAt: string | null;
  audio: MediaRef | null;
  subtitles: MediaRef | null;
  subtitlesVtt: MediaRef | null;
}

export interface NarrationsResponse {
  data: NarrationView[];
  queue: QueueState;
}

/** Target of a per-document action. */
export interface DocumentTarget {
  contentType: string;
  documentId: string;
  locale?: string | null;
}

/** A settings validation error as the server reports it (400). */
export interface FieldError {
  path: string[];
  message: string;
}

/* Speech to text (server/src/controllers/admin-transcriptions.ts) */

export type TranscriptionStatus = 'uploading' | 'queued' | 'processing' | 'completed' | 'failed';
export type TranscriptionOutputFormat = 'json' | 'srt';
export type TranscriptDownloadFormat = 'srt' | 'vtt' | 'json';

export interface SavedTranscriptFile {
  id: number;
  name: string | null;
  url: string;
  mime: string | null;
  size?: number | null;
}

export interface TranscriptionView {
  id: number;
  documentId: string;
  fileName: string;
  fileSize: number | null;
  mimeType: string | null;
  language: string;
  outputFormat: TranscriptionOutputFormat;
  status: TranscriptionStatus;
  serviceStatus: string | null;
  jobId: string | null;
  submittedBy: { id: number | null; name: string | null } | null;
  error: string | null;
  errorCode: string | null;
  /** A transient problem while following the job (retried); null when the last poll went well. */
  pollWarning: string | null;
  nextPollAt: string | null;
  createdAt: string;
  submittedAt: string | null;
  completedAt: string | null;
  updatedAt: string;
  hasResult: boolean;
  savedFile: SavedTranscriptFile | null;
}

export interface TranscriptSegment {
  /** Seconds. */
  start: number;
  end: number;
  text: string;
}

export interface TranscriptResult {
  format: TranscriptionOutputFormat;
  segments: TranscriptSegment[];
  text: string;
  srt: string | null;
}

export interface TranscriptionDetail extends TranscriptionView {
  result: TranscriptResult | null;
}

export interface TranscriptionListResponse {
  data: TranscriptionView[];
  meta: { limit: number; pollIntervalMs: number };
}

export interface SaveTranscriptionResponse {
  data: TranscriptionView;
  file: SavedTranscriptFile;
  created: boolean;
}

/** One of the site's webhooks as Strapi's admin API (`/admin/webhooks`) answers it. */
export interface SiteWebhook {
  id: string;
  name: string;
  url: string;
  headers: Record<string, string>;
  events: string[];
  isEnabled: boolean;
}
