import type { Voice, VoiceCheck } from '../../api/types';

/**
 * Voices by language on the settings page: which voices a locale's picker offers, and whether the
 * voice a locale would be read in speaks another language. Pure: unit-tested. The language rule is
 * the server's (server/src/voices/language.ts): primary subtags compared, unknown never a mismatch.
 */

/** `ar-JO`, `ar_male` -> `ar`; null when the tag does not start with a language. */
export function primaryLanguage(tag: string | undefined | null): string | null {
  const match = typeof tag === 'string' ? /^([A-Za-z]{2,3})(?:$|[-_])/.exec(tag.trim()) : null;
  return match ? match[1].toLowerCase() : null;
}

/**
 * The voices a locale's picker offers: those of the locale's language when the voice list gives
 * languages and has some of it; otherwise every voice (a picker with nothing to choose helps no one).
 * The chosen voice stays listed even when it is of another language, so the choice stays visible.
 */
export function voicesForLocale(voices: Voice[], locale: string, chosen?: string): Voice[] {
  const language = primaryLanguage(locale);
  const same = voices.filter((voice) => language !== null && primaryLanguage(voice.language) === language);
  if (same.length === 0) return voices;
  const current = chosen ? voices.find((voice) => voice.id === chosen && !same.includes(voice)) : undefined;
  return current ? [current, ...same] : same;
}

/**
 * The voice a locale would be read in with the form as edited (its own, else the default) and its
 * language: from the voice list, else from the server's check of the saved settings for that same voice.
 */
export function localeVoiceCheck(
  locale: string,
  localeVoices: Record<string, string>,
  defaultVoiceId: string,
  voices: Voice[] | undefined,
  savedChecks: Record<string, VoiceCheck | null> | undefined
): VoiceCheck | null {
  const id = localeVoices[locale] || defaultVoiceId;
  if (!id) return null;
  const saved = savedChecks?.[locale];
  const listed = voices?.find((voice) => voice.id === id)?.language;
  const language = listed ?? (saved && saved.id === id ? saved.language : null) ?? null;
  const spoken = primaryLanguage(language);
  const written = primaryLanguage(locale);
  return { id, language, mismatch: Boolean(spoken && written && spoken !== written) };
}
