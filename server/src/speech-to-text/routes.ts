import { adminOnly, adminRoute, type PluginRoute } from '../access';

export const adminRoutes: PluginRoute[] = [
  adminRoute('admin-transcriptions.submit', adminOnly('transcribe')),
  adminRoute('admin-transcriptions.list', adminOnly('transcribe')),
  adminRoute('admin-transcriptions.findOne', adminOnly('transcribe')),
  adminRoute('admin-transcriptions.download', adminOnly('transcribe')),
  adminRoute('admin-transcriptions.save', adminOnly('transcribe')),
];
