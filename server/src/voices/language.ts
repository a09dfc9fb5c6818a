/**
 * Languages of voices and articles: does a voice speak the language of the article it reads?
 * Pure: no Strapi, no I/O.
 */
import type { VoiceCheck } from '../../../shared/contracts/voices';

/** `ar-JO`, `ar_male`, `ar-female-1` -> `ar`; null when the tag does not start with a language. */
export function primaryLanguage(tag: string | undefined | null): string | null {
  const match = typeof tag === 'string' ? /^([A-Za-z]{2,3})(?:$|[-_])/.exec(tag.trim()) : null;
  return match ? match[1].toLowerCase() : null;
}

/** A voice and its language; `mismatch` when that differs from the article's locale. */
export type { VoiceCheck };

/**
 * Compares a voice's language with an article's locale by primary language subtag. Unknown on
 * either side is never a mismatch: a warning must mean something, so only the voice list's own
 * word counts (the voice id is not read for a language here).
 */
export function checkVoiceLanguage(
  voiceId: string,
  voiceLanguage: string | null | undefined,
  locale: string | null | undefined
): VoiceCheck {
  const language = typeof voiceLanguage === 'string' && voiceLanguage.trim() ? voiceLanguage.trim() : null;
  const spoken = primaryLanguage(language);
  const written = primaryLanguage(locale);
  return { id: voiceId, language, mismatch: Boolean(spoken && written && spoken !== written) };
}

/**
 * The codes a per-locale setting is looked up under for an article's locale, most specific first,
 * in lower case: the locale's own (`pt-br`), then its language's (`ar-JO` -> `ar-jo`, `ar`).
 */
export function localeFallbacks(locale: string | null | undefined): string[] {
  if (!locale) return [];
  const exact = locale.toLowerCase();
  const language = primaryLanguage(locale);
  return language === null || language === exact ? [exact] : [exact, language];
}

/**
 * A per-locale setting (voices, intro and outro templates) for an article's locale: the locale's
 * own entry wins (`pt-BR`); a regional locale without one falls back to its language's
 * (`ar-JO` -> `ar`). Locale codes are compared without regard to case.
 */
export function forLocale<T>(byLocale: Readonly<Record<string, T>> | undefined, locale: string | null | undefined): T | null {
  if (!byLocale || !locale) return null;
  const byCode = new Map(Object.entries(byLocale).map(([code, value]) => [code.toLowerCase(), value]));
  for (const code of localeFallbacks(locale)) {
    const value = byCode.get(code);
    if (value !== undefined) return value;
  }
  return null;
}
