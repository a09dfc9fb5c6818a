import { z } from 'zod/v3';

export const backfillConfigShape = {
  backfill: z
    .object({
      /** The most all backfills keep queued at once; by default about a day of the queue's drain. */
      backlog: z.number().int().min(1).max(100_000).optional(),
      /** How often a backfill looks for room in the queue (a narration of its own ending wakes it sooner). */
      intervalMs: z.number().int().min(100).max(3_600_000).default(15_000),
    })
    .strict()
    .default({}),
};
export type BackfillConfig = z.output<(typeof backfillConfigShape)['backfill']>;
