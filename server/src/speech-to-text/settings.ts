import { type SpeechClientConfig, MAX_TRANSCRIPTION_UPLOAD_BYTES } from '../speech-client';
import type { SpeechToTextConfig } from './config';

/** Timing and limits of speech to text, derived from the plugin's configuration. */

/** Spec section 8. */
export const MAX_AUDIO_BYTES = MAX_TRANSCRIPTION_UPLOAD_BYTES;
/** Room for the multipart envelope (boundaries, part headers, the two text fields) beyond the file itself. */
export const MULTIPART_ENVELOPE_ALLOWANCE = 64 * 1024;

export interface TranscriptionSettings {
  pollMs: number;
  maxWaitMs: number;
  /** How long one poll holds a row; longer than a request to the service may take. */
  pollLeaseMs: number;
  /** How long an upload holds its row without progress before the row counts as interrupted. */
  uploadLeaseMs: number;
}

export function readTranscriptionSettings(
  config: SpeechToTextConfig & Pick<SpeechClientConfig, 'requestTimeoutMs'>
): TranscriptionSettings {
  const { requestTimeoutMs } = config;
  return {
    pollMs: config.sttPollIntervalMs,
    maxWaitMs: config.sttMaxWaitMs,
    pollLeaseMs: requestTimeoutMs + 15_000,
    uploadLeaseMs: Math.max(2 * 60_000, requestTimeoutMs * 3),
  };
}
