import { publicRoute, type PluginRoute } from '../access';

/** A feed is the same for everyone: the Public role decides what is in it. */
export const contentApiRoutes: PluginRoute[] = [
  { method: 'GET', path: '/feeds/:pluralName.xml', handler: 'feeds.feed', config: publicRoute },
  // GET answers HEAD too (koa-router); a HEAD is not counted as a download.
  { method: 'GET', path: '/feeds/:pluralName/:articleId/audio.mp3', handler: 'feeds.enclosure', config: publicRoute },
];
