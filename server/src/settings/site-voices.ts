import type { SpeechSettings } from '../../../shared/contracts/settings';

/** The site's own voices (the default, each locale's, each locale's quotes): a 403 on one of them is the key's, not an editor's choice. */
export function siteVoices(settings: Pick<SpeechSettings, 'defaultVoiceId' | 'localeVoices' | 'quoteVoices'>): Set<string> {
  return new Set(
    [settings.defaultVoiceId, ...Object.values(settings.localeVoices), ...Object.values(settings.quoteVoices)].filter(Boolean)
  );
}
