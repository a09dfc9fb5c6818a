import { adminOnly, publicRoute, type PluginRoute } from '../access/permissions';

/** Listening insights: the player's events (public, under /api/speech), and what editors read (admin, under /speech). */
export const contentApiRoutes: PluginRoute[] = [
  { method: 'POST', path: '/insights/events', handler: 'insights-events.create', config: publicRoute },
];

/** Any admin; each route counts only what the Content Manager lets the caller read (admin.controller.ts). */
export const adminRoutes: PluginRoute[] = [
  { method: 'GET', path: '/insights', handler: 'admin-insights.site', config: adminOnly() },
  { method: 'GET', path: '/insights/listening.csv', handler: 'admin-insights.csv', config: adminOnly() },
  { method: 'GET', path: '/insights/document/:documentId', handler: 'admin-insights.document', config: adminOnly() },
];
