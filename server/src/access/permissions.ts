import { ADMIN_ROUTES, type AdminHandler } from '../../../shared/contracts/routes';

/** Settings -> Roles; uids become `plugin::speech.<uid>`. */
export const PERMISSION_ACTIONS = [
  { section: 'plugins', displayName: 'Read settings', uid: 'settings.read', pluginName: 'speech' },
  { section: 'plugins', displayName: 'Change settings', uid: 'settings.update', pluginName: 'speech' },
  { section: 'plugins', displayName: 'Narrate and regenerate articles', uid: 'narrate', pluginName: 'speech' },
  { section: 'plugins', displayName: 'Transcribe audio', uid: 'transcribe', pluginName: 'speech' },
] as const;

export const action = (uid: (typeof PERMISSION_ACTIONS)[number]['uid']) => `plugin::speech.${uid}`;

/** Every one of `actions` is required; none: any admin. */
export const adminOnly = (...actions: Array<(typeof PERMISSION_ACTIONS)[number]['uid']>) => ({
  policies: ['admin::isAuthenticatedAdmin', { name: 'admin::hasPermissions', config: { actions: actions.map(action) } }],
});

/** It carries its own check (a signature, the content API's read rule) or holds no data. */
export const publicRoute = { auth: false } as const;

export interface PluginRoute {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  path: string;
  handler: string;
  config: ReturnType<typeof adminOnly> | typeof publicRoute;
}

export function adminRoute(handler: AdminHandler, config: ReturnType<typeof adminOnly>): PluginRoute {
  const { method, path } = ADMIN_ROUTES[handler];
  return { method, path, handler, config };
}
