import { z } from 'zod/v3';

/** An allow-listed media origin: a bare host (https only) or an origin with an explicit scheme. */
const mediaHost = z
  .string()
  .min(1)
  .refine(
    (value) => /^https?:\/\/[^/\s]+\/?$/i.test(value) || /^[a-z0-9.-]+(:\d+)?$/i.test(value),
    'must be a host name ("cdn.example.com") or an origin ("http://127.0.0.1:4010")'
  );

/** What the plugin downloads from the service's media links: from where, how much, how long. */
export const downloadConfigShape = {
  /** Hosts the MP3 and SRT may be downloaded from. Empty: the origins of baseUrl and webUrl. */
  mediaHosts: z.array(mediaHost).default([]),
  maxAudioBytes: z
    .number()
    .int()
    .positive()
    .default(200 * 1024 * 1024),
  maxSubtitleBytes: z
    .number()
    .int()
    .positive()
    .default(5 * 1024 * 1024),
  downloadTimeoutMs: z.number().int().positive().default(120_000),
};
export type DownloadConfig = z.output<z.ZodObject<typeof downloadConfigShape>>;
