import { forLocale } from './language';

/** One rule wherever a voice is chosen, so the voice an editor is shown is the voice that is paid for. */

export interface VoiceChoice {
  override?: string | null;
  locale?: string | null;
  localeVoices?: Readonly<Record<string, string>>;
  defaultVoiceId: string;
}

export function resolveVoiceId({ override, locale, localeVoices, defaultVoiceId }: VoiceChoice): string {
  return override || forLocale(localeVoices, locale) || defaultVoiceId;
}
