import { z } from 'zod/v3';

/** Off: the events route answers 204 and counts nothing. */
export const insightsSchema = z
  .object({
    enabled: z.boolean().default(true),
    /** Also flushed when Strapi stops. */
    flushSeconds: z.number().int().min(1).max(300).default(5),
    retentionDays: z.number().int().min(1).max(3660).default(400),
  })
  .strict();
export type InsightsConfig = z.output<typeof insightsSchema>;

export const insightsConfigShape = {
  insights: insightsSchema.default({}),
};
