import { adminOnly, type PluginRoute } from '../access/permissions';

/** The lexicon's tools in Settings (admin routes under /speech); the rules are saved with the settings. */
export const adminRoutes: PluginRoute[] = [
  // Hearing a lexicon rule spends credits: whoever may change the lexicon may hear it.
  { method: 'POST', path: '/lexicon/hear', handler: 'admin-lexicon.hear', config: adminOnly('settings.update') },
  { method: 'POST', path: '/lexicon/affected', handler: 'admin-lexicon.affected', config: adminOnly() },
];
