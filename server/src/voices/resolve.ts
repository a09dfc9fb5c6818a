import { primaryLanguage } from './language';

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

/**
 * The locale's own entry wins (`pt-BR`); a regional locale without one falls back to its
 * language's (`ar-JO` -> `ar`). Locale codes are compared without regard to case.
 */
export function localeVoiceFor(localeVoices: Readonly<Record<string, string>> | undefined, locale: string | null | undefined): string | null {
  if (!localeVoices || !locale) return null;
  const byCode = new Map(Object.entries(localeVoices).map(([code, voiceId]) => [code.toLowerCase(), voiceId]));
  const exact = byCode.get(locale.toLowerCase());
  if (exact) return exact;
  const language = primaryLanguage(locale);
  return (language && byCode.get(language)) || null;
}

export function resolveVoiceId({ override, locale, localeVoices, defaultVoiceId }: VoiceChoice): string {
  return override || localeVoiceFor(localeVoices, locale) || defaultVoiceId;
}
