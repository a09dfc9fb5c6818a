import type { SpeechSettings } from '../../../shared/contracts/settings';

/** A 403 on one of the site's own voices is the key's fault, not an editor's choice. */
export function siteVoices(settings: Pick<SpeechSettings, 'defaultVoiceId' | 'localeVoices' | 'quoteVoices'>): Set<string> {
  return new Set(
    [settings.defaultVoiceId, ...Object.values(settings.localeVoices), ...Object.values(settings.quoteVoices)].filter(Boolean)
  );
}
