import type { SkippableBlock, NarrationMode, VerificationOnMismatch, TypeSettings, FileTypeSettings } from '../../../api/types';

/** A narrated type's settings as the page edits them. */
export interface TypeForm {
  enabled: boolean;
  /** Follows the type (published with draft & publish, saved without): shown, not chosen. */
  trigger: 'publish' | 'save';
  titleField: string | null;
  textFields: string[];
  skipBlocks: SkippableBlock[];
  authorField: string | null;
  /** Whole (one request per article) or in parts; what the server had, else whole. */
  narrationMode: NarrationMode;
  /** The type's own longest part; null: the global one (the field left empty). */
  segmentCharacters: number | null;
  /** Each stored narration checked by the service's speech to text (docs/verification.md). */
  verify: boolean;
  /** What a mismatch does: flag it, or regenerate the article once (paid). */
  onMismatch: VerificationOnMismatch;
  /** Each paragraph in its own language's voice (docs/passage-voices.md). */
  passageVoices: boolean;
  /** What the server had, kept so switching a type off keeps its valid configuration. */
  original: TypeSettings | null;
  /**
   * What the configuration file gives the type of the fields above that a saved type may leave to
   * it (`{}`: none, or the type is not in the file): those are sent only where they differ. Undefined
   * when the server does not say (older servers): they are sent as shown.
   */
  file?: FileTypeSettings;
}

/** The fields a title or an author may come from. */
export const TITLE_FIELD_TYPES = new Set(['string', 'text']);
