import { createSpeechClient, type SpeechClient } from '../speech-client';
import { getService } from '../utils';

/**
 * The plugin's one client of the speech service, configured from the plugin's config: narration,
 * speech to text and voice previews all go through it.
 */
export function createSpeechClientService(): SpeechClient {
  const { config } = getService('settings');
  return createSpeechClient({
    apiKey: config.apiKey,
    baseUrl: config.baseUrl,
    webUrl: config.webUrl,
    timeoutMs: config.requestTimeoutMs,
    voicesPath: config.voicesPath,
  });
}
