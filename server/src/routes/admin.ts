import { action } from '../permissions';

const guarded = (...actions: string[]) => ({
  policies: ['admin::isAuthenticatedAdmin', { name: 'admin::hasPermissions', config: { actions } }],
});

/** Admin routes under /speech, for the admin panel (admin JWT + RBAC). */
export default {
  type: 'admin',
  routes: [
    { method: 'GET', path: '/settings', handler: 'admin-settings.get', config: guarded(action('settings.read')) },
    { method: 'PUT', path: '/settings', handler: 'admin-settings.update', config: guarded(action('settings.update')) },
    { method: 'GET', path: '/narrated-types', handler: 'admin-settings.narratedTypes', config: guarded() },
    { method: 'GET', path: '/voices', handler: 'admin-settings.voices', config: guarded() },
    { method: 'POST', path: '/connection/test', handler: 'admin-settings.testConnection', config: guarded(action('settings.read')) },
    { method: 'POST', path: '/cost', handler: 'admin-settings.cost', config: guarded() },
    { method: 'POST', path: '/narrations/estimate', handler: 'admin-settings.estimate', config: guarded() },
    { method: 'GET', path: '/overview', handler: 'admin-narrations.overview', config: guarded(action('settings.read')) },
    { method: 'POST', path: '/narrations/statuses', handler: 'admin-narrations.statuses', config: guarded() },
    { method: 'GET', path: '/narrations/document/:documentId', handler: 'admin-narrations.forDocument', config: guarded() },
    { method: 'POST', path: '/narrations/narrate', handler: 'admin-narrations.narrateNow', config: guarded(action('narrate')) },
    { method: 'POST', path: '/narrations/regenerate', handler: 'admin-narrations.regenerate', config: guarded(action('narrate')) },
    { method: 'POST', path: '/narrations/estimate-many', handler: 'admin-narrations.estimateMany', config: guarded() },
    { method: 'POST', path: '/narrations/narrate-many', handler: 'admin-narrations.narrateMany', config: guarded(action('narrate')) },
    { method: 'PUT', path: '/narrations/voice', handler: 'admin-narrations.setVoice', config: guarded(action('narrate')) },
    { method: 'POST', path: '/narrations/cancel', handler: 'admin-narrations.cancel', config: guarded(action('narrate')) },
    { method: 'POST', path: '/narrations/paragraphs', handler: 'admin-narrations.paragraphs', config: guarded() },
    // Speech generation spends credits: the same permission as narrating.
    { method: 'POST', path: '/narrations/listen', handler: 'admin-speech.listen', config: guarded(action('narrate')) },
    // Hearing a lexicon rule spends credits: whoever may change the lexicon may hear it.
    { method: 'POST', path: '/lexicon/hear', handler: 'admin-lexicon.hear', config: guarded(action('settings.update')) },
    { method: 'POST', path: '/lexicon/affected', handler: 'admin-lexicon.affected', config: guarded() },
    { method: 'POST', path: '/queue/resume', handler: 'admin-narrations.resumeQueue', config: guarded(action('narrate')) },
  ],
};
