import { adminOnly, adminRoute, type PluginRoute } from '../access';

/** Looking is the queue page's (settings.read); starting or steering one spends credits: narrate as well. */
export const adminRoutes: PluginRoute[] = [
  adminRoute('admin-backfills.estimate', adminOnly('settings.read', 'narrate')),
  adminRoute('admin-backfills.start', adminOnly('settings.read', 'narrate')),
  adminRoute('admin-backfills.list', adminOnly('settings.read')),
  adminRoute('admin-backfills.findOne', adminOnly('settings.read')),
  adminRoute('admin-backfills.act', adminOnly('settings.read', 'narrate')),
];
