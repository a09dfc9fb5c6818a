import { adminOnly, adminRoute, type PluginRoute } from '../access';

export const adminRoutes: PluginRoute[] = [
  adminRoute('admin-voices.list', adminOnly()),
  // The Transcribe page's voice preview: speech generation for whoever may transcribe.
  adminRoute('admin-voices.preview', adminOnly('transcribe')),
];
