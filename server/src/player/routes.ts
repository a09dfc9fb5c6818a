import { publicRoute, type PluginRoute } from '../access';

/** The <speech-narration> player: a static ES module, public (it holds no data). */
export const contentApiRoutes: PluginRoute[] = [{ method: 'GET', path: '/player.js', handler: 'player.script', config: publicRoute }];
