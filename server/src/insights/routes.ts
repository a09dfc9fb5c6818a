import { adminOnly, adminRoute, publicRoute, type PluginRoute } from '../access';

export const contentApiRoutes: PluginRoute[] = [
  { method: 'POST', path: '/insights/events', handler: 'insights-events.create', config: publicRoute },
];

/** Any admin; each route counts only what the Content Manager lets the caller read. */
export const adminRoutes: PluginRoute[] = [
  adminRoute('admin-insights.site', adminOnly()),
  adminRoute('admin-insights.csv', adminOnly()),
  adminRoute('admin-insights.document', adminOnly()),
];
