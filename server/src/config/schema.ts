import { z } from 'zod/v3';
import { backfillConfigShape } from '../backfill';
import { creditsConfigShape } from '../credits/config';
import { downloadConfigShape } from '../download/config';
import { feedsConfigShape } from '../feeds/config';
import { insightsConfigShape } from '../insights/config';
import { metricsConfigShape } from '../metrics/config';
import { narrationConfigShape, playerConfigShape } from '../narration/config';
import { queueConfigShape } from '../queue';
import { configIssues, invalidConfigError, type ConfigProblem } from '../settings/problems';
import { speechClientConfigShape } from '../speech-client/config';
import { speechToTextConfigShape } from '../speech-to-text/config';
import { verificationConfigShape } from '../verification/config';
import { voicesConfigShape } from '../voices/config';

/** Parsed once at start, so a bad value stops Strapi naming the key rather than failing on the first publish. */
export const pluginConfigSchema = z
  .object({
    ...speechClientConfigShape,
    ...voicesConfigShape,
    ...narrationConfigShape,
    ...queueConfigShape,
    ...downloadConfigShape,
    ...speechToTextConfigShape,
    ...feedsConfigShape,
    ...playerConfigShape,
    ...creditsConfigShape,
    ...insightsConfigShape,
    ...verificationConfigShape,
    ...metricsConfigShape,
    ...backfillConfigShape,
  })
  .strict();

export type PluginConfigInput = z.input<typeof pluginConfigSchema>;
export type PluginConfig = z.output<typeof pluginConfigSchema>;

export function parsePluginConfig(raw: unknown): PluginConfig {
  const result = pluginConfigSchema.safeParse(raw);
  if (!result.success) throw invalidConfigError(configIssues(result.error));
  return result.data;
}

/** These hosts are sent the API key; the value is the variable the README's config reads each from. */
const SERVICE_HOSTS = { baseUrl: 'SPEECH_BASE_URL', webUrl: 'SPEECH_WEB_URL' } as const;
type ServiceHostKey = keyof typeof SERVICE_HOSTS;

function missingServiceHosts(raw: unknown): ServiceHostKey[] {
  const config = (raw ?? {}) as Partial<Record<ServiceHostKey, unknown>>;
  return (Object.keys(SERVICE_HOSTS) as ServiceHostKey[]).filter((key) => {
    const value = config[key];
    return value === undefined || value === null || (typeof value === 'string' && value.trim() === '');
  });
}

/** Every problem at once, one line each. */
export function validatePluginConfig(raw: unknown, { production }: { production: boolean }): void {
  const missing = production ? missingServiceHosts(raw) : [];
  const missingKeys = new Set<string | number>(missing);
  const result = pluginConfigSchema.safeParse(raw);
  const problems: ConfigProblem[] = [
    ...missing.map((key) => ({
      path: [key],
      message:
        `required when NODE_ENV=production, where it does not default to the local emulator: set it to the speech ` +
        `service's host in config/plugins.ts, e.g. ${key}: env('${SERVICE_HOSTS[key]}'), and ${SERVICE_HOSTS[key]} in the environment`,
    })),
    // A missing host's own "Required" would only repeat the line above.
    ...(result.success ? [] : configIssues(result.error).filter((problem) => !missingKeys.has(problem.path[0]))),
  ];
  if (problems.length > 0) throw invalidConfigError(problems);
}
