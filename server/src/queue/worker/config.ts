import { z } from 'zod/v3';
import { httpUrl } from '../../utils';

export const queueConfigShape = {
  /** Where the service POSTs results. Empty: the server's public URL + /api/speech/callback. */
  callbackUrl: z.union([httpUrl, z.literal('')]).default(''),
  /** Articles awaiting a callback at once, account-wide (spec section 8 recommends about three). */
  maxInFlight: z.number().int().min(1).max(50).default(3),
  /** Without a callback after this long, resubmit with regenerate false (free re-delivery). */
  callbackTimeoutMs: z
    .number()
    .int()
    .positive()
    .default(15 * 60_000),
  /** How long an empty answer to the free check is held before it counts as a failure (a replay may come first). */
  noAudioGraceMs: z.number().int().positive().default(60_000),
  /** Submissions per article version before it is marked failed. */
  maxAttempts: z.number().int().min(1).max(20).default(3),
  /** How long a 402 pause lasts before the queue probes the balance again. */
  creditsPauseMs: z
    .number()
    .int()
    .positive()
    .default(10 * 60_000),
  pollIntervalMs: z.number().int().min(50).default(2_000),
  /** How long a claimed narration is held by one instance before another may take it over. */
  leaseMs: z.number().int().min(1_000).default(60_000),
  /** Run the queue worker in this instance (turn off on instances that should only serve). */
  worker: z.boolean().default(true),
};
export type QueueConfig = z.output<z.ZodObject<typeof queueConfigShape>>;
