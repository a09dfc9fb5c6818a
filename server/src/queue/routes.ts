import { publicRoute, type PluginRoute } from '../access';

/** The speech service's callback, under /api/speech: it carries its own authentication, the HMAC signature. */
export const contentApiRoutes: PluginRoute[] = [{ method: 'POST', path: '/callback', handler: 'callback.receive', config: publicRoute }];
