import { z } from 'zod/v3';

export const speechToTextConfigShape = {
  /** The spec's reference client polls every 5 s (section 3.2). */
  sttPollIntervalMs: z.number().int().min(50).default(5_000),
  sttMaxWaitMs: z
    .number()
    .int()
    .min(1_000)
    .default(24 * 60 * 60_000),
};
export type SpeechToTextConfig = z.output<z.ZodObject<typeof speechToTextConfigShape>>;
