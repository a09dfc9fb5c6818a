import { z } from 'zod/v3';

/** Speech to text's slice of the configuration: how often a transcription is asked after, and for how long. */
export const speechToTextConfigShape = {
  /** The spec's reference client polls every 5 s (section 3.2). */
  sttPollIntervalMs: z.number().int().min(50).default(5_000),
  /** A transcription still queued or processing after this long is given up as failed. */
  sttMaxWaitMs: z
    .number()
    .int()
    .min(1_000)
    .default(24 * 60 * 60_000),
};
export type SpeechToTextConfig = z.output<z.ZodObject<typeof speechToTextConfigShape>>;
