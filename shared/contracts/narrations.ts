/**
 * The narration queue's admin routes (server/src/narration): statuses for the list view, the edit
 * view's panel, the editor's actions, the bulk action, the cost preview. Plain types and constants,
 * imported by the server and the admin alike.
 */
import type { DocumentTarget, ManyTarget, MediaRef, QueueState } from './common';
import type { PreprocessType, SpeechSettings } from './settings';
import type { VerificationView } from './verification';
import type { VoiceCheck } from './voices';

/**
 * Every state a narration can be in (queue/domain/states/ holds the rules between them).
 * `awaiting_parts`: a segmented narration whose parts are being generated (docs/segmented-narration.md).
 */
export const NARRATION_STATUSES = [
  'queued',
  'submitting',
  'awaiting_callback',
  'awaiting_parts',
  'storing',
  'completed',
  'failed',
  'cancelled',
] as const;
export type NarrationStatus = (typeof NARRATION_STATUSES)[number];

/** Why a stored version was made: the first narration, an edit, an editor's regenerate, a failed check's regenerate. */
export const REVISION_CAUSES = ['first', 'edit', 'regenerate', 'verification'] as const;
export type RevisionCause = (typeof REVISION_CAUSES)[number];

/** Seconds in the audio of that version. */
export interface RevisionSpan {
  start: number;
  end: number;
}

/** A stored version of a narration, as the public narration JSON lists them (newest first). */
export interface Revision {
  at: string;
  cause: RevisionCause;
  /** The passages read anew, where the plugin knows them (segmented narration); empty: the whole audio. */
  changed: RevisionSpan[];
}

/** A stored version as the admin lists it: its revision, what its requests spent, and its check. */
export interface NarrationVersion extends Revision {
  /** Passages read anew (0: the whole audio, or not known). */
  passages: number;
  /** Credits the requests made for this version spent (refunds taken off). */
  credits: number;
  /** Its check by speech to text, while the plugin keeps checks (92 days); null for a type that does not verify. */
  verification: { status: 'pending' | 'verified' | 'mismatch' | 'failed'; wordAccuracy: number | null } | null;
}

export interface NarrationVersionsRequest {
  params: { articleId: string };
}

export interface NarrationVersionsResponse {
  data: NarrationVersion[];
}

/** What the admin shows of a narration; never the API key, never internal lease data. */
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
  /** The files (lists read none: null there). */
  audio: MediaRef | null;
  subtitles: MediaRef | null;
  subtitlesVtt: MediaRef | null;
  /** A segmented narration: how many of its parts are ready ("7 of 18 parts ready"). Null in whole-article mode, and in lists. */
  parts: PartsProgress | null;
  /** Its check by speech to text (shared/contracts/verification.ts); null for a type that does not verify, and before anything was stored. */
  verification: VerificationView | null;
}

/** Parts of a segmented narration (docs/segmented-narration.md). */
export interface PartsProgress {
  total: number;
  ready: number;
}

/** What a segmented version would pay: the parts that changed ("2 of 18 parts changed: 640 credits"). */
export interface PartsChanged {
  total: number;
  changed: number;
}

/** Narrations of some documents, and the queue they wait in. */
export interface NarrationsResponse {
  data: NarrationView[];
  queue: QueueState;
}

/** POST /speech/narrations/statuses: one request for a whole list page. */
export interface NarrationStatusesRequest {
  body: { contentType: string; documentIds: string[] };
}
export type NarrationStatusesResponse = NarrationsResponse;

/** GET /speech/narrations/document/:documentId?contentType&locale: the edit view's panel (files at readable URLs). */
export interface DocumentNarrationsRequest {
  params: { documentId: string };
  query: { contentType: string; locale?: string | null };
}
export type DocumentNarrationsResponse = NarrationsResponse;

/** What a narration costs: characters times the mode's multiplier (spec section 8). */
export interface CostBreakdown {
  characters: number;
  multiplier: 1 | 2;
  credits: number;
}

/** POST /speech/cost: the cost of any text in both modes (the settings page's preview). */
export interface CostRequest {
  body: { text: string };
}
export interface CostResponse {
  verbatim: CostBreakdown;
  preprocessed: CostBreakdown;
}

/** POST /speech/narrations/estimate: what narrating the document's current (draft) text would cost. */
export interface EstimateRequest {
  /** `voiceId` is accepted and not read: the estimate is in the voice the article would be narrated in. */
  body: DocumentTarget & { voiceId?: string };
}
export interface EstimateResponse {
  articleId: string;
  /** The entry's title as it is narrated (its title field; its documentId when it has none), for lists of entries. */
  title: string;
  characters: number;
  credits: number;
  preprocessType: PreprocessType;
  voiceId: string;
  /** The article's own voice when an editor chose one. */
  voiceOverride: string | null;
  /** The voice's language against the article's locale (said before anything is paid). */
  voice: VoiceCheck;
  /** The text is the one last narrated: narrating it again would change nothing. */
  unchanged: boolean;
  /**
   * A type narrated in parts: how many would be asked for. `characters` and `credits` are then those
   * of the changed parts only, what narrating it would pay. Null in whole-article mode.
   */
  parts: PartsChanged | null;
  /**
   * What "Regenerate" would pay: a fresh take of the whole text. In parts, every part (each distinct
   * part once, unchanged ones included), where `characters` and `credits` above count the changed
   * ones only; whole, the same as above.
   */
  regeneration: { characters: number; credits: number };
  /**
   * A type with passage voices read in several voices (docs/passage-voices.md): the requests a
   * publish would send, by voice, in order of first use. Null when one voice reads it all.
   */
  requestsByVoice: VoiceRequests[] | null;
}

/** Requests sent in one voice, and what they pay. */
export interface VoiceRequests {
  voiceId: string;
  requests: number;
  characters: number;
  credits: number;
}

/** POST /speech/narrations/estimate-many: the bulk dialog's preview, of what the caller may read and narrate. */
export interface EstimateManyRequest {
  body: ManyTarget;
}
export interface EstimateManyResponse {
  items: Array<EstimateResponse & { documentId: string }>;
  toSubmit: number;
  skipped: number;
  totalCredits: number;
  /** Entries that would be submitted in a voice of another language. */
  voiceMismatches: number;
  /** Entries the signed-in admin may not narrate (Content Manager permissions): left out. */
  refused: string[];
}

/** POST /speech/narrations/narrate and /regenerate: whether the document was queued, and why not. */
export interface NarrateRequest {
  body: DocumentTarget;
}
export interface NarrateResponse {
  articleId: string;
  queued: boolean;
  reason?: string;
}
export type RegenerateRequest = NarrateRequest;
export type RegenerateResponse = NarrateResponse;

/** POST /speech/narrations/narrate-many: the bulk action. */
export interface NarrateManyRequest {
  body: ManyTarget;
}
export interface NarrateManyResponse {
  results: NarrateResponse[];
  queued: number;
  /** Entries the signed-in admin may not narrate: left out. */
  refused: string[];
}

/** PUT /speech/narrations/voice: the entry's own voice (null: back to the locale's or the default). */
export interface SetVoiceRequest {
  body: DocumentTarget & { voiceId: string | null };
}
export interface SetVoiceResponse {
  articleId: string;
  voiceId: string | null;
}

/** POST /speech/narrations/cancel */
export interface CancelRequest {
  body: DocumentTarget;
}
export interface CancelResponse {
  cancelled: true;
}

/** POST /speech/narrations/paragraphs: the draft's paragraphs and the voice they would be read in. */
export interface ParagraphsRequest {
  body: DocumentTarget;
}
export interface ParagraphsResponse {
  articleId: string;
  voiceId: string;
  paragraphs: Array<{ index: number; text: string; characters: number }>;
}

/** POST /speech/narrations/listen -> audio/mpeg: one paragraph of the draft, in the voice it would be narrated in. */
export interface ListenRequest {
  body: DocumentTarget & { index: number };
}

/** POST /speech/queue/resume: lifts a pause (credits, API key). */
export interface ResumeQueueResponse {
  queue: QueueState;
}

/** GET /speech/overview (`settings.read`): the queue at a glance. */
export interface OverviewResponse {
  apiKeyConfigured: boolean;
  baseUrl: string;
  webUrl: string;
  callbackUrl: string;
  queue: QueueState;
  /** Narrations by status. */
  counts: Record<string, number>;
  settings: SpeechSettings;
}
