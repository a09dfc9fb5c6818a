import { z } from 'zod/v3';
import { httpUrl } from '../utils';

/** The speech client's slice of the configuration (`config/plugins.ts` -> `speech.config`): the account and its hosts. */
export const speechClientConfigShape = {
  /** Company API key. Empty means narration is paused with a configuration error; Strapi still starts. */
  apiKey: z.string().default(''),
  /** Host of the article endpoint (POST /process-text). */
  baseUrl: httpUrl,
  /** Host of the STT and TTS endpoints; a different host from baseUrl on the real service. */
  webUrl: httpUrl,
  /** Timeout of a single request to the speech service. */
  requestTimeoutMs: z.number().int().positive().default(30_000),
};
export type SpeechClientConfig = z.output<z.ZodObject<typeof speechClientConfigShape>>;
