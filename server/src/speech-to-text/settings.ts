import { type SpeechClientConfig, MAX_TRANSCRIPTION_UPLOAD_BYTES } from '../speech-client';
import type { SpeechToTextConfig } from './config';

/** Spec section 8. */
export const MAX_AUDIO_BYTES = MAX_TRANSCRIPTION_UPLOAD_BYTES;
/** Room for the multipart envelope beyond the file itself. */
export const MULTIPART_ENVELOPE_ALLOWANCE = 64 * 1024;

export interface TranscriptionSettings {
  pollMs: number;
  maxWaitMs: number;
  /** Longer than a request to the service may take. */
  pollLeaseMs: number;
  /** Without progress this long, the upload counts as interrupted. */
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
