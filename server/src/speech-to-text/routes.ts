import { adminOnly, type PluginRoute } from '../access/permissions';

/** Speech to text for the admin, under /speech (admin JWT + `plugin::speech.transcribe`). */
export const adminRoutes: PluginRoute[] = [
  { method: 'POST', path: '/transcriptions', handler: 'admin-transcriptions.submit', config: adminOnly('transcribe') },
  { method: 'GET', path: '/transcriptions', handler: 'admin-transcriptions.list', config: adminOnly('transcribe') },
  { method: 'GET', path: '/transcriptions/:id', handler: 'admin-transcriptions.findOne', config: adminOnly('transcribe') },
  { method: 'GET', path: '/transcriptions/:id/download', handler: 'admin-transcriptions.download', config: adminOnly('transcribe') },
  { method: 'POST', path: '/transcriptions/:id/save', handler: 'admin-transcriptions.save', config: adminOnly('transcribe') },
];
