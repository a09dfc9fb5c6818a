import { adminOnly, adminRoute, publicRoute, type PluginRoute } from '../access';

export const adminRoutes: PluginRoute[] = [
  adminRoute('admin-narrations.cost', adminOnly()),
  adminRoute('admin-narrations.estimate', adminOnly()),
  adminRoute('admin-narrations.overview', adminOnly('settings.read')),
  adminRoute('admin-narrations.statuses', adminOnly()),
  adminRoute('admin-narrations.forDocument', adminOnly()),
  adminRoute('admin-narrations.versions', adminOnly()),
  adminRoute('admin-narrations.narrateNow', adminOnly('narrate')),
  adminRoute('admin-narrations.regenerate', adminOnly('narrate')),
  adminRoute('admin-narrations.estimateMany', adminOnly()),
  adminRoute('admin-narrations.narrateMany', adminOnly('narrate')),
  adminRoute('admin-narrations.setVoice', adminOnly('narrate')),
  adminRoute('admin-narrations.cancel', adminOnly('narrate')),
  adminRoute('admin-narrations.paragraphs', adminOnly()),
  adminRoute('admin-narrations.passages', adminOnly()),
  adminRoute('admin-narrations.setPassageVoice', adminOnly('narrate')),
  adminRoute('admin-narrations.lexiconAffected', adminOnly()),
  // Speech generation spends credits: the same permission as narrating.
  adminRoute('admin-narrations.listen', adminOnly('narrate')),
  adminRoute('admin-narrations.resumeQueue', adminOnly('narrate')),
  adminRoute('admin-narrations.letThrough', adminOnly('settings.update')),
];

export const contentApiRoutes: PluginRoute[] = [
  { method: 'GET', path: '/narrations/:articleId', handler: 'narrations.findOne', config: publicRoute },
  { method: 'GET', path: '/narrations/:articleId/audio.mp3', handler: 'narrations.audio', config: publicRoute },
  { method: 'GET', path: '/narrations/:articleId/subtitles.srt', handler: 'narrations.srt', config: publicRoute },
  { method: 'GET', path: '/narrations/:articleId/subtitles.vtt', handler: 'narrations.vtt', config: publicRoute },
  { method: 'GET', path: '/narrations/:articleId/chapters.vtt', handler: 'narrations.chapters', config: publicRoute },
  { method: 'GET', path: '/narrations/:articleId/chapters.json', handler: 'narrations.chaptersJson', config: publicRoute },
];
