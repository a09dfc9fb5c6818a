import { z } from 'zod/v3';
import { creditsConfigShape } from '../credits/config';
import { downloadConfigShape } from '../download/config';
import { feedsConfigShape } from '../feeds/config';
import { insightsConfigShape } from '../insights/config';
import { narrationConfigShape } from '../narration/config';
import { queueConfigShape } from '../queue';
import { configIssues, invalidConfigError } from '../settings/problems';
import { speechClientConfigShape } from '../speech-client/config';
import { speechToTextConfigShape } from '../speech-to-text/config';
import { verificationConfigShape } from '../verification/config';
import { voicesConfigShape } from '../voices/config';

/**
 * The plugin's configuration (`config/plugins.ts` -> `speech.config`): each feature's slice, in
 * one flat object as users write it (docs/configuration.md). Parsed once at start: a bad value
 * stops Strapi with a message that names the key, rather than failing later on the first publish.
 */
export const pluginConfigSchema = z
  .object({
    ...speechClientConfigShape,
    ...voicesConfigShape,
    ...narrationConfigShape,
    ...queueConfigShape,
    ...downloadConfigShape,
    ...speechToTextConfigShape,
    ...feedsConfigShape,
    ...creditsConfigShape,
    ...insightsConfigShape,
    ...verificationConfigShape,
  })
  .strict();

export type PluginConfigInput = z.input<typeof pluginConfigSchema>;
export type PluginConfig = z.output<typeof pluginConfigSchema>;

export function parsePluginConfig(raw: unknown): PluginConfig {
  const result = pluginConfigSchema.safeParse(raw);
  if (!result.success) throw invalidConfigError(configIssues(result.error));
  return result.data;
}
