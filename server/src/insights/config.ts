import { z } from 'zod/v3';

/**
 * Listening insights: the player's events and the feeds' downloads, counted as daily
 * totals per narration. Off: the events route answers 204 and counts nothing.
 */
export const insightsSchema = z
  .object({
    enabled: z.boolean().default(true),
    /** How often the counts kept in memory are written to the database (and when Strapi stops). */
    flushSeconds: z.number().int().min(1).max(300).default(5),
    /** Days a narration's daily totals are kept. */
    retentionDays: z.number().int().min(1).max(3660).default(400),
  })
  .strict();
export type InsightsConfig = z.output<typeof insightsSchema>;

/** The insights' slice of the configuration. */
export const insightsConfigShape = {
  /** Listening insights from the player and the feeds. */
  insights: insightsSchema.default({}),
};
