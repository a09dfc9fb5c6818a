/** Request and response shapes of the speech services contract (spec sections 2 and 4). */
import { z } from 'zod/v3';
import type { PreprocessType } from '../../../shared/contracts/settings';
import type { TranscriptionOutputFormat } from '../../../shared/contracts/transcriptions';
import type { Voice } from '../../../shared/contracts/voices';

// Declared once, in the shared contracts, because the admin uses them too.
/** "2": AI preprocessing at twice the character cost. Always sent as a JSON string. */
export type { PreprocessType };
export type { Voice };
export type { TranscriptionOutputFormat };

export interface ProcessTextPostData {
  name: string;
  /** Idempotency key per company, echoed in the callback. */
  articleId: string;
  voiceId: string;
  callbackURL: string;
  preprocessType?: PreprocessType;
  /** Forces a fresh (charged) generation of an articleId generated before. */
  regenerate?: boolean;
}

export interface ProcessTextRequest {
  text: string;
  postData: ProcessTextPostData;
}

export interface NarrationCallbackResponse {
  audioFile: string | null;
  srtFile: string | null;
  signature: string;
}

export interface NarrationCallbackPayload {
  articleId: string;
  response: NarrationCallbackResponse;
}

/** Lengths first, so nothing large reaches the signature check; a missing URL is null, a failure (section 6). */
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
  result?: { subtitles: unknown };
  /** Not in the contract; kept when a service explains a failed job. */
  error?: { code?: string; message?: string };
}
