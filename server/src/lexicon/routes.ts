import { adminOnly, adminRoute, type PluginRoute } from '../access/permissions';

/** The lexicon's tools in Settings (admin routes under /speech); the rules are saved with the settings. */
export const adminRoutes: PluginRoute[] = [
  // Hearing a lexicon rule spends credits: whoever may change the lexicon may hear it.
  adminRoute('admin-lexicon.hear', adminOnly('settings.update')),
  adminRoute('admin-lexicon.affected', adminOnly()),
];
