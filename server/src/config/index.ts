import type { Core } from '@strapi/strapi';
import type { z } from 'zod/v3';
import { contentTypeSchema, hasDraftAndPublishSchema } from '../utils/content-type-lookup';
import { parsePluginConfig, validatePluginConfig, type PluginConfig } from './schema';
import { runtimeSettingsParts } from './settings';

/** The local emulator (`npm run emulator`): where the service's hosts point outside production. */
export const EMULATOR_URL = 'http://127.0.0.1:4010';

const defaults = {
  apiKey: '',
  callbackUrl: '',
  contentTypes: {},
  defaultVoiceId: '',
  localeVoices: {},
  siteName: '',
  introTemplates: {},
  outroTemplates: {},
  preprocessType: '0',
};

/** Strapi's environment, as Strapi itself reads it to pick `config/env/<env>/`. */
function inProduction(): boolean {
  return process.env.NODE_ENV === 'production';
}

/**
 * The plugin's configuration, assembled from its features' slices (`<feature>/config.ts`): the
 * file's schema (schema.ts) and what an editor may change over it (settings.ts). In production the
 * service's hosts have no default: the API key is never sent to the local emulator unasked.
 */
export default {
  default: () => (inProduction() ? defaults : { ...defaults, baseUrl: EMULATOR_URL, webUrl: EMULATOR_URL }),
  validator(config: unknown) {
    validatePluginConfig(config, { production: inProduction() });
  },
};

const parsed = new WeakMap<Core.Strapi, PluginConfig>();

/** The app's configuration of the plugin, parsed once per Strapi (Strapi's validator has already refused a bad one). */
export function pluginConfig(strapi: Core.Strapi): PluginConfig {
  let config = parsed.get(strapi);
  if (!config) {
    config = parsePluginConfig(strapi.config.get('plugin::speech'));
    parsed.set(strapi, config);
  }
  return config;
}

/** These keys of the parsed configuration, and no other: what a service is given. */
export function pick<Key extends keyof PluginConfig>(config: PluginConfig, keys: readonly Key[]): Pick<PluginConfig, Key> {
  return Object.fromEntries(keys.map((key) => [key, config[key]])) as Pick<PluginConfig, Key>;
}

/** The keys of one feature's slice (`<feature>/config.ts`'s shape) of the parsed configuration: what that feature is given. */
export function sliceOf<Shape extends z.ZodRawShape>(config: PluginConfig, shape: Shape): z.output<z.ZodObject<Shape>> {
  return pick(config, Object.keys(shape) as Array<keyof PluginConfig>) as z.output<z.ZodObject<Shape>>;
}

/** The settings service's parts for this Strapi: the file, and whether a type has draft & publish (its trigger). */
export function settingsParts(strapi: Core.Strapi) {
  return runtimeSettingsParts(pluginConfig(strapi), (uid) => hasDraftAndPublishSchema(contentTypeSchema(strapi, uid)));
}

export { parsePluginConfig, pluginConfigSchema, validatePluginConfig, type PluginConfig, type PluginConfigInput } from './schema';
export { runtimeSettingsSchema, type RuntimeSettings } from './settings';
