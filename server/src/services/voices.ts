import type { Voice } from '../speech-client';
import { getService } from '../utils';

/** How long the service's voice list is kept before it is asked again. */
const VOICES_CACHE_MS = 10 * 60_000;

/**
 * The voices editors choose from: the list in the configuration (`voiceSource: 'config'`), or the
 * speech service's, kept for ten minutes.
 */
export function createVoicesService() {
  const { config } = getService('settings');
  const client = getService('speech-client');
  let cached: { voices: Voice[]; at: number } | null = null;

  return {
    /** `fresh`: ask the service even when the list is still kept (the settings page's connection test). */
    async list({ fresh = false }: { fresh?: boolean } = {}): Promise<Voice[]> {
      if (config.voiceSource === 'config') return config.voices;
      if (!fresh && cached && Date.now() - cached.at < VOICES_CACHE_MS) return cached.voices;
      const voices = await client.listVoices();
      cached = { voices, at: Date.now() };
      return voices;
    },
  };
}

export type VoicesService = ReturnType<typeof createVoicesService>;
