import { publicRoute, type PluginRoute } from '../access';

/** Strapi's auth is off: the controller checks the metrics' own bearer token. */
export const contentApiRoutes: PluginRoute[] = [{ method: 'GET', path: '/metrics', handler: 'metrics.scrape', config: publicRoute }];
