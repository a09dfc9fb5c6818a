import { z } from 'zod/v3';

const mediaHost = z
  .string()
  .min(1)
  .refine(
    (value) => /^https?:\/\/[^/\s]+\/?$/i.test(value) || /^[a-z0-9.-]+(:\d+)?$/i.test(value),
    'must be a host name ("cdn.example.com") or an origin ("http://127.0.0.1:4010")'
  );

export const downloadConfigShape = {
  /** Empty: the origins of baseUrl and webUrl. */
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
