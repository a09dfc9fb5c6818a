import { publicRoute, type PluginRoute } from '../access';

/** Public: a static ES module holding no data. */
export const contentApiRoutes: PluginRoute[] = [{ method: 'GET', path: '/player.js', handler: 'player.script', config: publicRoute }];
