import type { VoiceCheck } from '../../../shared/contracts/voices';

/** `ar-JO`, `ar_male`, `ar-female-1` -> `ar`. */
export function primaryLanguage(tag: string | undefined | null): string | null {
  const match = typeof tag === 'string' ? /^([A-Za-z]{2,3})(?:$|[-_])/.exec(tag.trim()) : null;
  return match ? match[1].toLowerCase() : null;
}

export type { VoiceCheck };

/** Unknown on either side is never a mismatch: a warning must mean something. */
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

/** Most specific first, lower case: `ar-JO` -> `ar-jo`, `ar`. */
export function localeFallbacks(locale: string | null | undefined): string[] {
  if (!locale) return [];
  const exact = locale.toLowerCase();
  const language = primaryLanguage(locale);
  return language === null || language === exact ? [exact] : [exact, language];
}

/** Locale codes are compared without regard to case. */
export function forLocale<T>(byLocale: Readonly<Record<string, T>> | undefined, locale: string | null | undefined): T | null {
  if (!byLocale || !locale) return null;
  const byCode = new Map(Object.entries(byLocale).map(([code, value]) => [code.toLowerCase(), value]));
  for (const code of localeFallbacks(locale)) {
    const value = byCode.get(code);
    if (value !== undefined) return value;
  }
  return null;
}
