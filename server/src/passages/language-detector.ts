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

/**
 * The script each language is written in (Latin when not listed). franc compares trigrams even when
 * a single one of the languages it is asked about is written in the paragraph's script: an Arabic
 * paragraph among Arabic, English and French is Arabic at once, which halves the work of an Arabic
 * article (npm run bench -- --only passages).
 */
const SCRIPT_OF: Readonly<Record<string, string>> = {
  ar: 'Arabic',
  fa: 'Arabic',
  ur: 'Arabic',
  ru: 'Cyrillic',
  uk: 'Cyrillic',
  hi: 'Devanagari',
  ja: 'Han',
  zh: 'Han',
  ko: 'Hangul',
};
const scriptOf = (language: string) => SCRIPT_OF[language] ?? 'Latin';
const SCRIPT_LETTERS: Readonly<Record<string, RegExp>> = Object.fromEntries(
  ['Arabic', 'Cyrillic', 'Devanagari', 'Han', 'Hangul', 'Latin'].map((script) => [script, new RegExp(`\\p{Script=${script}}`, 'gu')])
);

/** The script most of the text's letters are in, among `scripts`; null when none of them is. */
function dominantScript(text: string, scripts: readonly string[]): string | null {
  let dominant: string | null = null;
  let most = 0;
  for (const script of scripts) {
    const letters = text.match(SCRIPT_LETTERS[script]!)?.length ?? 0;
    if (letters > most) [dominant, most] = [script, letters];
  }
  return dominant;
}

/** Whether passages in this language (ISO 639-1) can be told apart from the others. */
export const isDetectable = (language: string) => language in FRANC_CODES;

export const detectLanguage: DetectLanguage = (text, candidates) => {
  const known = candidates.filter(isDetectable);
  if (known.length < 2) return null;
  const script = dominantScript(text, [...new Set(known.map(scriptOf))]);
  const written = known.filter((language) => scriptOf(language) === script);
  if (written.length <= 1) return written[0] ?? null;
  return LANGUAGE_OF_FRANC[franc(text, { only: written.map((language) => FRANC_CODES[language]!), minLength: 1 })] ?? null;
};
