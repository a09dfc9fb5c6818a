import { action } from '../permissions';

const transcribe = {
  policies: ['admin::isAuthenticatedAdmin', { name: 'admin::hasPermissions', config: { actions: [action('transcribe')] } }],
};

/** Speech to text and speech generation for the admin, under /speech (admin JWT + `plugin::speech.transcribe`). */
export default {
  type: 'admin',
  routes: [
    { method: 'POST', path: '/transcriptions', handler: 'admin-transcriptions.submit', config: transcribe },
    { method: 'GET', path: '/transcriptions', handler: 'admin-transcriptions.list', config: transcribe },
    { method: 'GET', path: '/transcriptions/:id', handler: 'admin-transcriptions.findOne', config: transcribe },
    { method: 'GET', path: '/transcriptions/:id/download', handler: 'admin-transcriptions.download', config: transcribe },
    { method: 'POST', path: '/transcriptions/:id/save', handler: 'admin-transcriptions.save', config: transcribe },
    { method: 'POST', path: '/tts/preview', handler: 'admin-speech.preview', config: transcribe },
  ],
};
