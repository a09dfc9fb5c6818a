import { ChartPie, Headphones, Microphone } from '@strapi/icons';
import type { PluginDefinition } from '@strapi/strapi/admin';
import { BulkNarrateAction } from './components/BulkNarrateAction';
import { NarratedTypesLoader } from './components/NarratedTypesLoader';
import { NarrationPanel } from './components/NarrationPanel';
import { addNarrationColumn } from './contentManagerHooks';
import type { ContentManagerApis } from './utils/contentManagerTypes';
import { PERMISSIONS } from './utils/permissions';
import { PLUGIN_ID } from './utils/pluginId';

/** The usage page under Settings (/settings/speech-usage). */
const USAGE_SETTINGS_PATH = `${PLUGIN_ID}-usage`;
/** The queue page under Settings (/settings/speech-queue). */
const QUEUE_SETTINGS_PATH = `${PLUGIN_ID}-queue`;
/** The listening page under Settings (/settings/speech-listening). */
const LISTENING_SETTINGS_PATH = `${PLUGIN_ID}-listening`;

type TranslationModule = { default: Record<string, string> };

/** Prefixes the plugin's keys so they cannot collide with other plugins' translations. */
function prefixKeys(messages: Record<string, string>) {
  return Object.fromEntries(Object.entries(messages).map(([key, value]) => [`${PLUGIN_ID}.${key}`, value]));
}

/**
 * What loads with the admin's first bundle is only this file and the small description
 * components; the settings page, the panel's content and the bulk dialog are separate chunks.
 */
const plugin: PluginDefinition = {
  register(app) {
    // The initializer loads which types are narrated once per login, before the list view asks
    // (its column hook is synchronous); it does not hold the admin back.
    app.registerPlugin({ id: PLUGIN_ID, name: PLUGIN_ID, initializer: NarratedTypesLoader, isReady: false });
    // Speech to text: a page of its own in the main menu (lazy chunk).
    app.addMenuLink({
      to: `plugins/${PLUGIN_ID}`,
      icon: Microphone,
      intlLabel: { id: `${PLUGIN_ID}.transcribe.menu`, defaultMessage: 'Transcribe' },
      Component: () => import('./pages/Transcribe'),
      permissions: PERMISSIONS.transcribe,
    });
    // The month against the budget on the home page, for settings readers only (lazy chunk). An
    // admin without homepage widgets simply shows none.
    app.widgets?.register({
      id: 'usage',
      pluginId: PLUGIN_ID,
      icon: ChartPie,
      title: { id: `${PLUGIN_ID}.widget.title`, defaultMessage: 'Speech credits this month' },
      component: () => import('./components/UsageWidget').then((module) => module.default),
      link: { label: { id: `${PLUGIN_ID}.widget.link`, defaultMessage: 'See the usage' }, href: `/settings/${USAGE_SETTINGS_PATH}` },
      permissions: PERMISSIONS.readSettings,
    });
    // The week's most listened articles, for every admin: the server counts only what the admin
    // may read in the Content Manager (lazy chunk).
    app.widgets?.register({
      id: 'listening',
      pluginId: PLUGIN_ID,
      icon: Headphones,
      title: { id: `${PLUGIN_ID}.listeningWidget.title`, defaultMessage: 'Most listened this week' },
      component: () => import('./components/ListeningWidget').then((module) => module.default),
      link: {
        label: { id: `${PLUGIN_ID}.listeningWidget.link`, defaultMessage: 'See the listening' },
        href: `/settings/${LISTENING_SETTINGS_PATH}`,
      },
    });
  },

  bootstrap(app) {
    app.addSettingsLink('global', {
      id: PLUGIN_ID,
      to: PLUGIN_ID,
      intlLabel: { id: `${PLUGIN_ID}.plugin.name`, defaultMessage: 'Speech' },
      Component: () => import('./pages/Settings'),
      permissions: PERMISSIONS.readSettings,
    });
    // A second link, not a sub-path of the first: the settings menu would show both as current.
    app.addSettingsLink('global', {
      id: `${PLUGIN_ID}-usage`,
      to: USAGE_SETTINGS_PATH,
      intlLabel: { id: `${PLUGIN_ID}.usage.title`, defaultMessage: 'Speech usage' },
      Component: () => import('./pages/Usage'),
      permissions: PERMISSIONS.readSettings,
    });
    app.addSettingsLink('global', {
      id: `${PLUGIN_ID}-queue`,
      to: QUEUE_SETTINGS_PATH,
      intlLabel: { id: `${PLUGIN_ID}.queue.title`, defaultMessage: 'Speech queue' },
      Component: () => import('./pages/Queue'),
      permissions: PERMISSIONS.readSettings,
    });
    // Listening, for every admin (no permission of its own): the figures are what the admin's
    // Content Manager read permission allows.
    app.addSettingsLink('global', {
      id: `${PLUGIN_ID}-listening`,
      to: LISTENING_SETTINGS_PATH,
      intlLabel: { id: `${PLUGIN_ID}.listening.title`, defaultMessage: 'Speech listening' },
      Component: () => import('./pages/Listening'),
      permissions: [],
    });

    // A plugin's apis are typed Record<string, unknown>; the content manager's are these.
    const contentManagerApis = app.getPlugin('content-manager')?.apis as ContentManagerApis | undefined;
    if (contentManagerApis) {
      contentManagerApis.addEditViewSidePanel([NarrationPanel]);
      contentManagerApis.addBulkAction([BulkNarrateAction]);
    }
    app.registerHook('Admin/CM/pages/ListView/inject-column-in-table', addNarrationColumn);
  },

  async registerTrads({ locales }: { locales: string[] }) {
    return Promise.all(
      locales.map(async (locale) => {
        try {
          // One catalogue per area of the plugin, merged (verified narration, passage voices and the queue page have their own).
          const [main, verification, passages, queue] = (await Promise.all([
            import(`./translations/${locale}.json`),
            import(`./translations/verification/${locale}.json`),
            import(`./translations/passages/${locale}.json`),
            import(`./translations/queue/${locale}.json`),
          ])) as TranslationModule[];
          return { data: prefixKeys({ ...main.default, ...verification.default, ...passages.default, ...queue.default }), locale };
        } catch {
          return { data: {}, locale };
        }
      })
    );
  },
};

export default plugin;
