import type { Core } from '@strapi/strapi';
import type { z } from 'zod/v3';
import { contentTypeSchema, hasDraftAndPublishSchema } from '../utils/content-type-lookup';
import { parsePluginConfig, validatePluginConfig, type PluginConfig } from './schema';
import { runtimeSettingsParts } from './settings';

/** The local emulator (`npm run emulator`). */
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

/** As Strapi itself reads it to pick `config/env/<env>/`. */
function inProduction(): boolean {
  return process.env.NODE_ENV === 'production';
}

/** In production the service's hosts have no default: the API key is never sent to the local emulator unasked. */
export default {
  default: () => (inProduction() ? defaults : { ...defaults, baseUrl: EMULATOR_URL, webUrl: EMULATOR_URL }),
  validator(config: unknown) {
    validatePluginConfig(config, { production: inProduction() });
  },
};

const parsed = new WeakMap<Core.Strapi, PluginConfig>();

/** Parsed once per Strapi; Strapi's validator has already refused a bad one. */
export function pluginConfig(strapi: Core.Strapi): PluginConfig {
  let config = parsed.get(strapi);
  if (!config) {
    config = parsePluginConfig(strapi.config.get('plugin::speech'));
    parsed.set(strapi, config);
  }
  return config;
}

/** These keys and no other: what a service is given. */
export function pick<Key extends keyof PluginConfig>(config: PluginConfig, keys: readonly Key[]): Pick<PluginConfig, Key> {
  return Object.fromEntries(keys.map((key) => [key, config[key]])) as Pick<PluginConfig, Key>;
}

export function sliceOf<Shape extends z.ZodRawShape>(config: PluginConfig, shape: Shape): z.output<z.ZodObject<Shape>> {
  return pick(config, Object.keys(shape) as Array<keyof PluginConfig>) as z.output<z.ZodObject<Shape>>;
}

export function settingsParts(strapi: Core.Strapi) {
  return runtimeSettingsParts(pluginConfig(strapi), (uid) => hasDraftAndPublishSchema(contentTypeSchema(strapi, uid)));
}

export { parsePluginConfig, pluginConfigSchema, validatePluginConfig, type PluginConfig } from './schema';
export { runtimeSettingsSchema } from './settings';
