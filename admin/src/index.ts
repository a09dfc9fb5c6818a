import { PLUGIN_ID } from './pluginId';

type TranslationModule = { default: Record<string, string> };

/** Prefixes the plugin's keys so they cannot collide with other plugins' translations. */
function prefixKeys(messages: Record<string, string>) {
  return Object.fromEntries(Object.entries(messages).map(([key, value]) => [`${PLUGIN_ID}.${key}`, value]));
}

export default {
  register(app: any) {
    app.registerPlugin({ id: PLUGIN_ID, name: PLUGIN_ID });
  },

  bootstrap() {},

  async registerTrans({ locales }: { locales: string[] }) {
    return Promise.all(
      locales.map(async (locale) => {
        try {
          const { default: data } = (await import(`./translations/${locale}.json`)) as TranslationModule;
          return { data: prefixKeys(data), locale };
        } catch {
          return { data: {}, locale };
        }
      })
    );
  },
};
