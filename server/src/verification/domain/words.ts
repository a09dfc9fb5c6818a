/**
 * The words of a text as a check compares them: what was sent to the service against what its
 * speech to text heard. Two spellings of one spoken word must compare equal, so each word is
 * normalised for its language:
 * - case, punctuation and spacing aside (an apostrophe inside a word is part of it: "don't");
 * - combining marks aside: Latin accents, and the Arabic harakat, Quranic marks and tatweel;
 * - Arabic letter variants as one: the alef forms (أ إ آ ٱ → ا), taa marbuta (ة → ه), alef maqsura (ى → ي);
 * - Arabic-Indic and Eastern Arabic-Indic digits as Western ones;
 * - a number as the words it is spoken with, in English and Arabic, so "21" and "twenty-one"
 *   (or "٢١" and "واحد وعشرون") compare equal, whichever the transcript writes.
 *
 * Each word keeps the token of the text it comes from, so a difference is shown as written.
 *
 * Pure: no Strapi, no I/O.
 */
import { isNumberConnector, spokenNumber } from './spoken-numbers';

export interface Word {
  /** The form compared. */
  norm: string;
  /** The token of the text it comes from: a number spoken as several words gives each the same one. */
  token: number;
}

export interface Words {
  words: Word[];
  /** The tokens as written, by index. */
  tokens: string[];
}

const MARKS = /[\p{M}\u0640]/gu;
const ALEF_WASLA = /\u0671/g;
const TAA_MARBUTA = /\u0629/g;
const ALEF_MAQSURA = /\u0649/g;
/** Arabic-Indic (U+0660-0669) and Eastern Arabic-Indic (U+06F0-06F9) digits. */
const EASTERN_DIGITS = /[\u0660-\u0669\u06F0-\u06F9]/g;
/** A token: letters, marks and digits, with apostrophes, decimal points and thousands separators between them. */
const TOKEN = /[\p{L}\p{M}\p{N}]+(?:['’.,٫٬][\p{L}\p{M}\p{N}]+)*/gu;
const NUMBER = /^\d+$/;
/** 1,200 or 1٬200: thousands separators, one number. */
const GROUPED_NUMBER = /^\d{1,3}(?:[,٬]\d{3})+$/;
/** مائة and مئة (and their compounds): two spellings of "hundred", after normalisation. */
const ARABIC_HUNDRED = /ماي(?=(?:ه|تان|تين)$)/g;

function westernDigits(text: string): string {
  return text.replace(EASTERN_DIGITS, (digit) => String((digit.charCodeAt(0) & 0xf) % 10));
}

/** One word's compared form: its letters and digits, lower-cased, without marks, Arabic variants as one. */
export function normaliseWord(token: string): string {
  return westernDigits(token)
    .normalize('NFKD')
    .replace(MARKS, '')
    .replace(ALEF_WASLA, '\u0627')
    .replace(TAA_MARBUTA, '\u0647')
    .replace(ALEF_MAQSURA, '\u064A')
    .toLowerCase()
    .replace(/['’]/g, '');
}

/** The language's primary subtag: `ar-JO` → `ar`. */
const primaryLanguage = (language: string | null | undefined) => (language ?? '').toLowerCase().split(/[-_]/)[0];

/**
 * The words of `text` in `language` (a locale code; its primary subtag chooses how numbers are
 * spoken). A number with separators ("1,200", "3.5") is compared digit group by digit group.
 */
export function wordsOf(text: string, language: string | null | undefined): Words {
  const lang = primaryLanguage(language);
  const tokens: string[] = [];
  const words: Word[] = [];
  // Words repeat: each written form is normalised once.
  const known = new Map<string, string[]>();
  for (const match of text.matchAll(TOKEN)) {
    const token = tokens.push(match[0]) - 1;
    let compared = known.get(match[0]);
    if (!compared) known.set(match[0], (compared = comparedForms(match[0], lang)));
    for (const norm of compared) words.push({ norm, token });
  }
  return {
    words: words.filter((word, index) => !isNumberConnector(lang, words[index - 1]?.norm, word.norm, words[index + 1]?.norm)),
    tokens,
  };
}

/** The compared words of one written token: one, or a number's spoken words, or none. */
function comparedForms(written: string, lang: string): string[] {
  const western = westernDigits(written);
  const pieces = GROUPED_NUMBER.test(western) ? [western.replace(/[,٬]/g, '')] : western.split(/[.,٫٬]/);
  const forms: string[] = [];
  for (const piece of pieces) {
    const norm = normaliseWord(piece);
    if (!norm) continue;
    const spoken = NUMBER.test(norm) ? spokenNumber(norm, lang) : null;
    for (const word of spoken ?? [norm]) forms.push(lang === 'ar' ? arabicSpelling(normaliseWord(word)) : normaliseWord(word));
  }
  return forms;
}

/**
 * Number words in the oblique case (عشرين، ألفين، اثنين) as in the nominative the digits are read
 * with (عشرون، ألفان، اثنان): a transcript writes what was said, and speech often says the former.
 */
const ARABIC_OBLIQUE_NUMBER = /^(و?)(عشر|ثلاث|اربع|خمس|ست|سبع|ثمان|تسع)ين$|^(و?)(اثن|ميت|الف|مليون|مليار)ين$|^(و?)اثني$/;

function arabicSpelling(word: string): string {
  const spelled = word.replace(ARABIC_HUNDRED, 'مي');
  const oblique = ARABIC_OBLIQUE_NUMBER.exec(spelled);
  if (!oblique) return spelled;
  if (oblique[2]) return `${oblique[1]}${oblique[2]}ون`;
  if (oblique[4]) return `${oblique[3]}${oblique[4]}ان`;
  return `${oblique[5]}اثنا`;
}
