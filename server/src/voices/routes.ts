import { adminOnly, type PluginRoute } from '../access/permissions';

/** The voice list and voice previews (admin routes under /speech). */
export const adminRoutes: PluginRoute[] = [
  { method: 'GET', path: '/voices', handler: 'admin-voices.list', config: adminOnly() },
  // The Transcribe page's voice preview: speech generation for whoever may transcribe.
  { method: 'POST', path: '/tts/preview', handler: 'admin-voices.preview', config: adminOnly('transcribe') },
];
