import { adminOnly, adminRoute, type PluginRoute } from '../access';

export const adminRoutes: PluginRoute[] = [
  adminRoute('admin-settings.get', adminOnly('settings.read')),
  adminRoute('admin-settings.update', adminOnly('settings.update')),
  // Any logged-in admin: editors without `settings.read` still see badges and the panel.
  adminRoute('admin-settings.narratedTypes', adminOnly()),
  adminRoute('admin-settings.testConnection', adminOnly('settings.read')),
];
