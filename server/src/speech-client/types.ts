/** Request and response shapes of the speech services contract (spec sections 2 and 4). */
import { z } from 'zod/v3';
import type { PreprocessType } from '../../../shared/contracts/settings';
import type { TranscriptionOutputFormat } from '../../../shared/contracts/transcriptions';
import type { Voice } from '../../../shared/contracts/voices';

// The same shapes reach the admin, so they are declared once, in the admin's contracts.
/** "0": narrate verbatim; "2": AI preprocessing at twice the character cost. Always sent as a JSON string. */
export type { PreprocessType };
/** Voice fields are not in the contract; id and name are what the plugin needs. */
export type { Voice };
export type { TranscriptionOutputFormat };

export interface ProcessTextPostData {
  /** Article title; becomes the title of the audio request. */
  name: string;
  /** Idempotency key per company, echoed in the callback. */
  articleId: string;
  voiceId: string;
  callbackURL: string;
  preprocessType?: PreprocessType;
  /** Forces a fresh (charged) generation of an articleId generated before. */
  regenerate?: boolean;
}

/** Body of POST {base_url}/process-text (2.1, 2.2). */
export interface ProcessTextRequest {
  text: string;
  postData: ProcessTextPostData;
}

export interface NarrationCallbackResponse {
  /** Null when generation failed or produced no audio. */
  audioFile: string | null;
  srtFile: string | null;
  signature: string;
}

/** Body the service POSTs to the callback URL (2.3). */
export interface NarrationCallbackPayload {
  articleId: string;
  response: NarrationCallbackResponse;
}

/**
 * Parses a callback body, lengths first so nothing large reaches the signature check or the
 * database. Unknown extra fields are allowed (the contract may grow); a missing audioFile/srtFile
 * is read as null, which the consumer rule of section 6 treats as a failure.
 */
const resultUrl = z
  .string()
  .max(2048)
  .url()
  .nullish()
  .transform((value) => value ?? null);

export const narrationCallbackPayloadSchema: z.ZodType<NarrationCallbackPayload, z.ZodTypeDef, unknown> = z.object({
  articleId: z.string().min(1).max(255),
  response: z.object({
    audioFile: resultUrl,
    srtFile: resultUrl,
    signature: z.string().min(1).max(256),
  }),
});

/** queued and processing mean "poll again"; completed carries the result; anything else is a failure. */
export type SttStatus = 'queued' | 'processing' | 'completed' | (string & {});

export interface SttJob {
  job_id: string;
  status: SttStatus;
  /** Present when status is completed. */
  result?: { subtitles: unknown };
  /** Not in the contract; kept when a service explains a failed job (the emulator does). */
  error?: { code?: string; message?: string };
}
