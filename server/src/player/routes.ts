import { publicRoute, type PluginRoute } from '../access';

/** Public: the player holds no data; the embed page and oEmbed answer only what the narration JSON answers the caller. */
export const contentApiRoutes: PluginRoute[] = [
  { method: 'GET', path: '/player.js', handler: 'player.script', config: publicRoute },
  { method: 'GET', path: '/embed/:articleId', handler: 'player.embed', config: publicRoute },
  { method: 'GET', path: '/oembed', handler: 'player.oembed', config: publicRoute },
];
