import { MAX_TRANSCRIPTION_UPLOAD_BYTES } from '../speech-client';

/**
 * Timing and limits of speech to text. Not in the plugin's config schema yet: the poll interval and
 * the give-up time can be overridden by environment variables, read when the service is created.
 */

/** The spec's reference client waits 5 s between status polls (section 3.2). */
export const DEFAULT_STT_POLL_MS = 5_000;
/** A job still queued or processing after this long is given up as failed. */
export const DEFAULT_STT_MAX_WAIT_MS = 24 * 60 * 60_000;
/** Spec section 8. */
export const MAX_AUDIO_BYTES = MAX_TRANSCRIPTION_UPLOAD_BYTES;
/** Room for the multipart envelope (boundaries, part headers, the two text fields) beyond the file itself. */
export const MULTIPART_ENVELOPE_ALLOWANCE = 64 * 1024;
export const DEFAULT_LANGUAGE = 'ar-JO';

export interface TranscriptionSettings {
  pollMs: number;
  maxWaitMs: number;
  /** How long one poll holds a row; longer than a request to the service may take. */
  pollLeaseMs: number;
  /** How long an upload holds its row without progress before the row counts as interrupted. */
  uploadLeaseMs: number;
}

function positiveInt(raw: string | undefined, fallback: number, min: number): number {
  if (raw === undefined || raw.trim() === '') return fallback;
  const value = Number(raw);
  return Number.isInteger(value) && value >= min ? value : fallback;
}

export function readTranscriptionSettings(env: NodeJS.ProcessEnv, requestTimeoutMs: number): TranscriptionSettings {
  const pollMs = positiveInt(env.SPEECH_STT_POLL_MS, DEFAULT_STT_POLL_MS, 50);
  return {
    pollMs,
    maxWaitMs: positiveInt(env.SPEECH_STT_MAX_WAIT_MS, DEFAULT_STT_MAX_WAIT_MS, 1_000),
    pollLeaseMs: requestTimeoutMs + 15_000,
    uploadLeaseMs: Math.max(2 * 60_000, requestTimeoutMs * 3),
  };
}
