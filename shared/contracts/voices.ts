/**
 * The voice list and voice previews (server/src/voices): GET /speech/voices, POST /speech/tts/preview.
 * Plain types and constants, imported by the server and the admin alike.
 */

/** Longest text a preview may send; longer texts are refused before any credit is spent. */
export const MAX_PREVIEW_TEXT_LENGTH = 10_000;

export interface Voice {
  id: string;
  name: string;
  language?: string;
  gender?: string;
}

/** A voice and its language as the voice list gives it; `mismatch` when that differs from the article's locale. */
export interface VoiceCheck {
  id: string;
  /** As the voice list says it; null when the list does not say (or the voice is not in it). */
  language: string | null;
  /** True only when both languages are known and their primary subtags differ (`ar-JO` and `ar` agree). */
  mismatch: boolean;
}

/** GET /speech/voices: the voices editors choose from. */
export interface ListVoicesResponse {
  voices: Voice[];
}

/** POST /speech/tts/preview -> audio/mpeg: a sample (or `text`) spoken in the voice. */
export interface PreviewVoiceRequest {
  body: { voiceId: string; text?: string | null };
}
