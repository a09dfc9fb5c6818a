import { adminOnly, adminRoute, type PluginRoute } from '../access';

/** The page is the settings readers'; acting on what it lists spends credits or stops narrations: narrate as well. */
export const adminRoutes: PluginRoute[] = [
  adminRoute('admin-queue.summary', adminOnly('settings.read')),
  adminRoute('admin-queue.entries', adminOnly('settings.read')),
  adminRoute('admin-queue.estimateRetry', adminOnly('settings.read', 'narrate')),
  adminRoute('admin-queue.retry', adminOnly('settings.read', 'narrate')),
  adminRoute('admin-queue.cancel', adminOnly('settings.read', 'narrate')),
];
