import { z } from 'zod/v3';
import { httpUrl } from '../utils';

/** The speech client's slice of the plugin configuration: the account and its hosts. */
export const speechClientConfigShape = {
  /** Empty pauses narration with a configuration error; Strapi still starts. */
  apiKey: z.string().default(''),
  baseUrl: httpUrl,
  /** A different host from baseUrl on the real service. */
  webUrl: httpUrl,
  requestTimeoutMs: z.number().int().positive().default(30_000),
};
export type SpeechClientConfig = z.output<z.ZodObject<typeof speechClientConfigShape>>;
