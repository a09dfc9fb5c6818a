/**
 * Rules `term -> spoken form` applied before the text is costed, so the cost shown is the cost of
 * what is sent. Word boundaries are Unicode classes (`\b` knows only ASCII, useless for Arabic).
 * Matches are found on the original text, so a spoken form is never matched again; on overlap the
 * longer term wins, then the earlier match, then the earlier rule.
 */
import { localeFallbacks } from '../../voices';
import type { LexiconRule } from '../../../../shared/contracts/lexicon';
import { oneLine } from '../../text';

export type { LexiconRule };

/** Harakat, superscript alef, Quranic marks and tatweel: also replaced, so no stray mark lands on the spoken form. */
const ARABIC_DIACRITICS = '\\u0610-\\u061A\\u0640\\u064B-\\u065F\\u0670\\u06D6-\\u06DC\\u06DF-\\u06E8\\u06EA-\\u06ED';
const DIACRITICS_RUN = `[${ARABIC_DIACRITICS}]*`;
// eslint-disable-next-line no-misleading-character-class -- the class lists combining marks on purpose, to match each one alone
const DIACRITIC = new RegExp(`[${ARABIC_DIACRITICS}]`, 'gu');

/** Common spellings of one word: alef forms, taa marbuta and haa, alef maqsura and yaa. */
const LETTER_VARIANTS = ['اأإآٱ', 'ةه', 'ىي'];
const VARIANT_CLASS = new Map(LETTER_VARIANTS.flatMap((group) => [...group].map((letter) => [letter, `[${group}]`] as const)));

/** `ar` also covers `ar-JO`. */
export function ruleAppliesTo(ruleLocale: string | null, articleLocale: string | null | undefined): boolean {
  if (ruleLocale === null) return true;
  return localeFallbacks(articleLocale).includes(ruleLocale.toLowerCase());
}

const escapeRegExp = (character: string) => character.replace(/[\\^$.*+?()[\]{}|/]/gu, '\\$&');
const WORD_CHARACTER = /[\p{L}\p{M}\p{N}_]/u;
const NOT_AFTER_WORD = '(?<![\\p{L}\\p{M}\\p{N}_])';
const NOT_BEFORE_WORD = '(?![\\p{L}\\p{M}\\p{N}_])';

function ruleRegExp(rule: Pick<LexiconRule, 'term' | 'wholeWord' | 'caseSensitive' | 'ignoreDiacritics' | 'letterVariants'>): RegExp {
  const term = rule.ignoreDiacritics ? oneLine(rule.term.replace(DIACRITIC, '')) : oneLine(rule.term);
  const characters = [...term];
  const body = characters
    .map((character) => {
      // A space in a term stands for any run of spaces on one line, never a line break.
      if (character === ' ') return '[^\\S\\n]+';
      const pattern = (rule.letterVariants && VARIANT_CLASS.get(character)) || escapeRegExp(character);
      return rule.ignoreDiacritics ? `${pattern}${DIACRITICS_RUN}` : pattern;
    })
    .join('');
  // Boundaries only where the term itself begins or ends with a word character ("C++", ".NET").
  const before = rule.wholeWord && WORD_CHARACTER.test(characters[0] ?? '') ? NOT_AFTER_WORD : '';
  const after = rule.wholeWord && WORD_CHARACTER.test(characters[characters.length - 1] ?? '') ? NOT_BEFORE_WORD : '';
  return new RegExp(`${before}${body}${after}`, rule.caseSensitive ? 'gu' : 'giu');
}

const compiled = new Map<string, RegExp>();
const COMPILED_MAX = 2_000;

function cachedRegExp(rule: LexiconRule): RegExp {
  const key = JSON.stringify([rule.term, rule.wholeWord, rule.caseSensitive, rule.ignoreDiacritics, rule.letterVariants]);
  let pattern = compiled.get(key);
  if (!pattern) {
    if (compiled.size >= COMPILED_MAX) compiled.clear();
    pattern = ruleRegExp(rule);
    compiled.set(key, pattern);
  }
  return pattern;
}

interface CompiledRule {
  pattern: RegExp;
  termLength: number;
  order: number;
  spoken: string;
}

type Match = Omit<CompiledRule, 'pattern'> & { start: number; end: number };

/** The applicable rules chosen and compiled once per article. */
export function compileLexicon(rules: readonly LexiconRule[], locale: string | null | undefined): (text: string) => string {
  const applicable: CompiledRule[] = [];
  rules.forEach((rule, order) => {
    if (!ruleAppliesTo(rule.locale, locale)) return;
    applicable.push({ pattern: cachedRegExp(rule), termLength: [...rule.term].length, order, spoken: rule.spoken });
  });
  return (text) => applyRules(text, applicable);
}

function applyRules(text: string, rules: readonly CompiledRule[]): string {
  const candidates: Match[] = [];
  for (const { pattern, termLength, order, spoken } of rules) {
    for (const match of text.matchAll(pattern)) {
      candidates.push({ start: match.index, end: match.index + match[0].length, termLength, order, spoken });
    }
  }
  if (candidates.length === 0) return text;

  candidates.sort((a, b) => b.termLength - a.termLength || a.start - b.start || a.order - b.order);
  const chosen: Match[] = [];
  const taken = new Uint8Array(text.length);
  for (const candidate of candidates) {
    if (taken.subarray(candidate.start, candidate.end).includes(1)) continue;
    taken.fill(1, candidate.start, candidate.end);
    chosen.push(candidate);
  }
  chosen.sort((a, b) => a.start - b.start);

  let result = '';
  let cursor = 0;
  for (const match of chosen) {
    result += text.slice(cursor, match.start) + match.spoken;
    cursor = match.end;
  }
  return (result + text.slice(cursor)).normalize('NFC');
}
