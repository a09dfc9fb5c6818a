import { forLocale } from './language';

/**
 * Which voice reads an article: its own override, else its locale's default, else the global
 * default. Used wherever a voice is chosen (publish, estimate, bulk, regenerate, listen), so the
 * voice an editor is shown is the voice that is paid for. Pure: no Strapi, no I/O.
 */

export interface VoiceChoice {
  /** The editor's choice for this one article. */
  override?: string | null;
  /** The article's locale; null for a type without i18n. */
  locale?: string | null;
  /** Default voice per locale code (`localeVoices`). */
  localeVoices?: Readonly<Record<string, string>>;
  /** The global default (`defaultVoiceId`). */
  defaultVoiceId: string;
}

export function resolveVoiceId({ override, locale, localeVoices, defaultVoiceId }: VoiceChoice): string {
  return override || forLocale(localeVoices, locale) || defaultVoiceId;
}
