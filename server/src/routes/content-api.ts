/**
 * Public routes under /api/speech. The callback carries its own authentication (the HMAC
 * signature); the narration routes expose only narrations of live content.
 */
export default {
  type: 'content-api',
  routes: [
    { method: 'POST', path: '/callback', handler: 'callback.receive', config: { auth: false } },
    { method: 'GET', path: '/narrations/:articleId', handler: 'narrations.findOne', config: { auth: false } },
    { method: 'GET', path: '/narrations/:articleId/audio.mp3', handler: 'narrations.audio', config: { auth: false } },
    { method: 'GET', path: '/narrations/:articleId/subtitles.srt', handler: 'narrations.srt', config: { auth: false } },
    { method: 'GET', path: '/narrations/:articleId/subtitles.vtt', handler: 'narrations.vtt', config: { auth: false } },
    { method: 'GET', path: '/narrations/:articleId/chapters.vtt', handler: 'narrations.chapters', config: { auth: false } },
    // The <speech-narration> player: a static ES module, public (it holds no data).
    { method: 'GET', path: '/player.js', handler: 'player.script', config: { auth: false } },
    // A podcast feed is the same for everyone: the Public role decides what is in it (services/feeds.ts).
    { method: 'GET', path: '/feeds/:pluralName.xml', handler: 'feeds.feed', config: { auth: false } },
  ],
};
