import { adminOnly, type PluginRoute } from '../access/permissions';

/** Settings -> Speech (admin routes under /speech). */
export const adminRoutes: PluginRoute[] = [
  { method: 'GET', path: '/settings', handler: 'admin-settings.get', config: adminOnly('settings.read') },
  { method: 'PUT', path: '/settings', handler: 'admin-settings.update', config: adminOnly('settings.update') },
  // Any logged-in admin: editors without `settings.read` still see badges and the panel.
  { method: 'GET', path: '/narrated-types', handler: 'admin-settings.narratedTypes', config: adminOnly() },
  { method: 'POST', path: '/connection/test', handler: 'admin-settings.testConnection', config: adminOnly('settings.read') },
];
