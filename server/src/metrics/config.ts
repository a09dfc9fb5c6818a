import { z } from 'zod/v3';

export const metricsConfigShape = {
  metrics: z
    .object({
      /** Off by default: a Prometheus endpoint is a door a site opens on purpose. */
      enabled: z.boolean().default(false),
      /** The bearer token a scraper sends; required when enabled. */
      token: z.string().min(16, 'must be at least 16 characters').max(512).optional(),
    })
    .strict()
    .refine((metrics) => !metrics.enabled || metrics.token, { message: 'token: required when metrics are enabled', path: ['token'] })
    .default({}),
};
export type MetricsConfig = z.output<(typeof metricsConfigShape)['metrics']>;
