import { parsePluginConfig } from './config-schema';

/**
 * Strapi merges these defaults with the app's `config/plugins.ts` and then calls the validator.
 * URLs default to the local emulator so that a bare install starts; the validator still rejects
 * anything malformed.
 */
export default {
  default: {
    apiKey: '',
    baseUrl: 'http://127.0.0.1:4010',
    webUrl: 'http://127.0.0.1:4010',
    callbackUrl: '',
    contentTypes: {},
    defaultVoiceId: '',
    localeVoices: {},
    siteName: '',
    introTemplates: {},
    outroTemplates: {},
    preprocessType: '0',
  },
  validator(config: unknown) {
    parsePluginConfig(config);
  },
};

export * from './config-schema';
