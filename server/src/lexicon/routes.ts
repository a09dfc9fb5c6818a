import { adminOnly, adminRoute, type PluginRoute } from '../access';

export const adminRoutes: PluginRoute[] = [
  // Hearing a rule spends credits: whoever may change the lexicon may hear it.
  adminRoute('admin-lexicon.hear', adminOnly('settings.update')),
];
