/** The voice list, which voice reads an article, speech generation for a preview. */
export { forLocale, localeFallbacks } from './language';
export { ensureVoicesListed, type AskedVoice } from './listed';
export { resolveVoiceId } from './resolve';
export { sendSpeech } from './send-speech';
export type { VoicesService } from './service';
