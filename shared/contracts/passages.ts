/**
 * Every passage in its own voice (docs/passage-voices.md): `contentTypes[uid].passageVoices` and
 * `quoteVoices` are public contracts (shared/contracts/settings.ts); these are the edit view's
 * list of a document's passages and an editor's choice of a passage's voice.
 */
import type { DocumentTarget } from './common';

/** Why a passage is read by its voice: the article's, its language's, the quote voice, an editor's choice, the paragraph before it (too short to tell), or the article's for want of one in its language. */
export const PASSAGE_VOICE_REASONS = ['article', 'language', 'quote', 'editor', 'surrounding', 'no-voice'] as const;
export type PassageVoiceReason = (typeof PASSAGE_VOICE_REASONS)[number];

export interface PassageView {
  /** What an editor's choice is kept by: a hash of the passage's text. */
  key: string;
  /** Its text, cut after 200 characters. */
  text: string;
  characters: number;
  quote: boolean;
  /** ISO 639-1 code of the language it is written in (the article's when not told). */
  language: string;
  voiceId: string;
  reason: PassageVoiceReason;
}

/** POST /speech/narrations/passages: the draft's passages, their languages and voices. */
export interface PassagesRequest {
  body: DocumentTarget;
}
export interface PassagesResponse {
  articleId: string;
  /** The article's voice. */
  voiceId: string;
  /** Whether the type reads passages in their own voices; when not, `passages` is empty. */
  passageVoices: boolean;
  passages: PassageView[];
  /** The voices that read it, in order of first use, with their passages: "3 voices: Arabic (v-ar), English (v-en) for 2 passages". */
  voices: Array<{ voiceId: string; passages: number; characters: number }>;
  /** Languages told in the text that have no voice of their own (read by the article's voice). */
  unvoicedLanguages: string[];
}

/** PUT /speech/narrations/passages/voice: an editor's voice for one passage; null gives it back to the rules. */
export interface SetPassageVoiceRequest {
  body: DocumentTarget & { passageKey: string; voiceId: string | null };
}
export interface SetPassageVoiceResponse {
  articleId: string;
  passageKey: string;
  voiceId: string | null;
}
