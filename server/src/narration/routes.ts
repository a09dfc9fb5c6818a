import { adminOnly, publicRoute, type PluginRoute } from '../access/permissions';

/** The narration queue for the admin (under /speech): statuses, the panel, the editor's actions, the bulk action. */
export const adminRoutes: PluginRoute[] = [
  { method: 'POST', path: '/cost', handler: 'admin-narrations.cost', config: adminOnly() },
  { method: 'POST', path: '/narrations/estimate', handler: 'admin-narrations.estimate', config: adminOnly() },
  { method: 'GET', path: '/overview', handler: 'admin-narrations.overview', config: adminOnly('settings.read') },
  { method: 'POST', path: '/narrations/statuses', handler: 'admin-narrations.statuses', config: adminOnly() },
  { method: 'GET', path: '/narrations/document/:documentId', handler: 'admin-narrations.forDocument', config: adminOnly() },
  { method: 'POST', path: '/narrations/narrate', handler: 'admin-narrations.narrateNow', config: adminOnly('narrate') },
  { method: 'POST', path: '/narrations/regenerate', handler: 'admin-narrations.regenerate', config: adminOnly('narrate') },
  { method: 'POST', path: '/narrations/estimate-many', handler: 'admin-narrations.estimateMany', config: adminOnly() },
  { method: 'POST', path: '/narrations/narrate-many', handler: 'admin-narrations.narrateMany', config: adminOnly('narrate') },
  { method: 'PUT', path: '/narrations/voice', handler: 'admin-narrations.setVoice', config: adminOnly('narrate') },
  { method: 'POST', path: '/narrations/cancel', handler: 'admin-narrations.cancel', config: adminOnly('narrate') },
  { method: 'POST', path: '/narrations/paragraphs', handler: 'admin-narrations.paragraphs', config: adminOnly() },
  // Speech generation spends credits: the same permission as narrating.
  { method: 'POST', path: '/narrations/listen', handler: 'admin-narrations.listen', config: adminOnly('narrate') },
  { method: 'POST', path: '/queue/resume', handler: 'admin-narrations.resumeQueue', config: adminOnly('narrate') },
];

/**
 * Public routes under /api/speech. The callback carries its own authentication (the HMAC
 * signature); the narration routes expose only narrations of live content the caller may read.
 */
export const contentApiRoutes: PluginRoute[] = [
  { method: 'POST', path: '/callback', handler: 'callback.receive', config: publicRoute },
  { method: 'GET', path: '/narrations/:articleId', handler: 'narrations.findOne', config: publicRoute },
  { method: 'GET', path: '/narrations/:articleId/audio.mp3', handler: 'narrations.audio', config: publicRoute },
  { method: 'GET', path: '/narrations/:articleId/subtitles.srt', handler: 'narrations.srt', config: publicRoute },
  { method: 'GET', path: '/narrations/:articleId/subtitles.vtt', handler: 'narrations.vtt', config: publicRoute },
  { method: 'GET', path: '/narrations/:articleId/chapters.vtt', handler: 'narrations.chapters', config: publicRoute },
];
