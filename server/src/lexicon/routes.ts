import { adminOnly, adminRoute, type PluginRoute } from '../access';

/** The lexicon's tool in Settings (an admin route under /speech); the rules are saved with the settings. */
export const adminRoutes: PluginRoute[] = [
  // Hearing a lexicon rule spends credits: whoever may change the lexicon may hear it.
  adminRoute('admin-lexicon.hear', adminOnly('settings.update')),
];
