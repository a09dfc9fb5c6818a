import { createVoicePreview } from '../voice-preview/preview';
import { getService } from '../utils';

/** Voice previews and "listen to this paragraph" (voice-preview/preview.ts), wired to the plugin's services. */
export function createVoicePreviewService() {
  const client = getService('speech-client');
  const voices = getService('voices');
  return createVoicePreview({ client: () => client, voices: () => voices.list() });
}
