/**
 * The language of a passage, told by franc (wooorm/franc, its "min" build of 82 languages):
 * trigram statistics, no native code, about 150 KB of data, maintained for a decade. It knows
 * Arabic and English and the other languages a site is likely to have voices for, and it can be
 * told which languages to choose among: restricted to the article's language and those with a
 * voice, it reads a 10,000-word article in a few tens of milliseconds (npm run bench -- --only
 * passages). It is ESM only: the plugin's build bundles it into the server (a devDependency).
 *
 * franc names languages by ISO 639-3 and gives individual languages, not macrolanguages (Arabic
 * is "arb", Standard Arabic, not "ara"): no ISO table maps a locale's language to what franc
 * answers, hence this one. A language missing from it is never told (its passages keep the
 * article's voice).
 */
import { franc } from 'franc-min';
import type { DetectLanguage } from './domain/passages';

const FRANC_CODES: Readonly<Record<string, string>> = {
  ar: 'arb',
  de: 'deu',
  en: 'eng',
  es: 'spa',
  fa: 'pes',
  fr: 'fra',
  hi: 'hin',
  id: 'ind',
  it: 'ita',
  ja: 'jpn',
  ko: 'kor',
  ms: 'zlm',
  nl: 'nld',
  pl: 'pol',
  pt: 'por',
  ru: 'rus',
  sw: 'swh',
  tr: 'tur',
  uk: 'ukr',
  ur: 'urd',
  zh: 'cmn',
};
const LANGUAGE_OF_FRANC = Object.fromEntries(Object.entries(FRANC_CODES).map(([language, code]) => [code, language]));

/** Whether passages in this language (ISO 639-1) can be told apart from the others. */
export const isDetectable = (language: string) => language in FRANC_CODES;

export const detectLanguage: DetectLanguage = (text, candidates) => {
  const only = candidates.flatMap((language) => (FRANC_CODES[language] ? [FRANC_CODES[language]] : []));
  if (only.length < 2) return null;
  return LANGUAGE_OF_FRANC[franc(text, { only, minLength: 1 })] ?? null;
};
