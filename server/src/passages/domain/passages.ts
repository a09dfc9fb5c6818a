/**
 * Every passage in its own voice (docs/passage-voices.md): the narrated text's passages (its
 * paragraphs, headings, and each line of a list or a table), each with the language it is written
 * in and the voice that reads it, and the runs of one voice that become the parts of the narration.
 *
 * A paragraph is read in the article's voice unless it is long enough to tell its language and
 * that language has a voice of its own (`localeVoices`), or it is a quote and the article's
 * language has a quote voice; an editor's choice for a paragraph wins over both. A short
 * paragraph (a heading, a name, a figure) keeps the voice of the one before it: a voice switch
 * for three words sounds worse than an accent.
 *
 * Pure: no Strapi, no I/O; the language detector is given (language-detector.ts).
 */
import { createHash } from 'node:crypto';
import { forLocale } from '../../voices';

/** Letters a paragraph needs before its language is told: under this, a guess is a coin toss, and a switch for it sounds worse. */
export const MIN_DETECTED_LETTERS = 40;

/** Tells the language of a text among candidates (ISO 639-1 codes); null when it cannot. */
export type DetectLanguage = (text: string, candidates: readonly string[]) => string | null;

/** Why a passage is read by its voice. */
export type VoiceReason = 'article' | 'language' | 'quote' | 'editor' | 'surrounding' | 'no-voice';

export interface Passage {
  /** A hash of its text: what an editor's choice of voice is kept by (it survives edits elsewhere). */
  key: string;
  text: string;
  /** UTF-16 offsets of the paragraph in the narrated text. */
  start: number;
  end: number;
  quote: boolean;
  /** ISO 639-1 code of the language it is written in; the article's when not told. */
  language: string;
  voiceId: string;
  reason: VoiceReason;
}

export interface PassageVoiceSettings {
  /** The article's language (its locale's first subtag) and voice. */
  language: string;
  voiceId: string;
  /** Voices by language (ISO 639-1), from `localeVoices`. */
  languageVoices: Readonly<Record<string, string>>;
  /** Other languages a passage may be in (the site's locales'): told, but read by the article's voice when they have none. */
  languages: readonly string[];
  /** The quote voice of the article's language, from `quoteVoices`; null: quotes are read by the article's voice. */
  quoteVoiceId: string | null;
  /** An editor's voice for a paragraph, by its key. */
  overrides: Readonly<Record<string, string>>;
}

/** The language part of a locale code ("ar-JO" -> "ar"). */
export const languageOf = (locale: string) => locale.split(/[-_]/)[0]!.toLowerCase();

/**
 * An article's passage settings from the site's: its language (its locale's, or the site's default
 * locale's for a type without locales), the voice of each language (a locale of the language alone,
 * such as `en`, over a regional one), the languages of the site, its quote voice.
 */
export function passageVoiceSettings(site: {
  locale: string | null;
  siteLocales: readonly string[];
  localeVoices: Readonly<Record<string, string>>;
  quoteVoices: Readonly<Record<string, string>>;
  overrides: Readonly<Record<string, string>>;
}): Omit<PassageVoiceSettings, 'voiceId'> {
  const locale = site.locale ?? site.siteLocales[0] ?? null;
  const languageVoices: Record<string, string> = {};
  for (const [code, voiceId] of Object.entries(site.localeVoices)) {
    const language = languageOf(code);
    if (code === language || !(language in languageVoices)) languageVoices[language] = voiceId;
  }
  return {
    language: locale ? languageOf(locale) : 'und',
    languageVoices,
    languages: [...new Set(site.siteLocales.map(languageOf))],
    quoteVoiceId: forLocale(site.quoteVoices, locale) || null,
    overrides: site.overrides,
  };
}

export const passageKey = (text: string) => createHash('sha256').update(`passage/v1\n${text}`, 'utf8').digest('hex').slice(0, 16);

const LETTER = /\p{L}/gu;
const letterCount = (text: string) => text.match(LETTER)?.length ?? 0;

/**
 * The passages of the narrated text: its lines (the text module puts each paragraph and heading on
 * a line of its own, separated by a blank one, and each item of a list and row of a table on a line
 * of its paragraph), trimmed, blank ones skipped.
 */
export function linesOf(text: string): Array<{ text: string; start: number; end: number }> {
  const lines: Array<{ text: string; start: number; end: number }> = [];
  const separator = /\n+/g;
  let start = 0;
  for (;;) {
    const match = separator.exec(text);
    const end = match ? match.index : text.length;
    const raw = text.slice(start, end);
    const trimmed = raw.trim();
    if (trimmed) {
      const offset = start + raw.indexOf(trimmed);
      lines.push({ text: trimmed, start: offset, end: offset + trimmed.length });
    }
    if (!match) return lines;
    start = match.index + match[0].length;
  }
}

/**
 * The passages of a narrated text with their languages and voices. `quotes`: the paragraphs that
 * are quotes, by their text (the text module collects them as it reads the blocks).
 */
export function passagesOf(text: string, quotes: ReadonlySet<string>, settings: PassageVoiceSettings, detect: DetectLanguage): Passage[] {
  const candidates = [...new Set([settings.language, ...Object.keys(settings.languageVoices), ...settings.languages])];
  const passages: Passage[] = [];
  for (const paragraph of linesOf(text)) {
    const key = passageKey(paragraph.text);
    const quote = quotes.has(paragraph.text);
    const told = letterCount(paragraph.text) >= MIN_DETECTED_LETTERS && candidates.length > 1 ? detect(paragraph.text, candidates) : null;
    const language = told ?? settings.language;
    const previous = passages.at(-1);
    const chosen = voiceOf({ key, quote, told, language }, previous, settings);
    passages.push({ key, text: paragraph.text, start: paragraph.start, end: paragraph.end, quote, language, ...chosen });
  }
  return passages;
}

function voiceOf(
  paragraph: { key: string; quote: boolean; told: string | null; language: string },
  previous: Passage | undefined,
  settings: PassageVoiceSettings
): { voiceId: string; reason: VoiceReason } {
  const chosen = settings.overrides[paragraph.key];
  if (chosen) return { voiceId: chosen, reason: 'editor' };
  if (paragraph.quote && settings.quoteVoiceId && paragraph.language === settings.language) {
    return { voiceId: settings.quoteVoiceId, reason: 'quote' };
  }
  if (paragraph.told === null) {
    // Too short to tell: it stays with what surrounds it (the paragraph before it, but a quote's voice).
    return previous && previous.reason !== 'quote' && previous.reason !== 'editor'
      ? { voiceId: previous.voiceId, reason: previous.reason === 'article' ? 'article' : 'surrounding' }
      : { voiceId: settings.voiceId, reason: 'article' };
  }
  if (paragraph.told === settings.language) return { voiceId: settings.voiceId, reason: 'article' };
  const voiceId = settings.languageVoices[paragraph.told];
  return voiceId ? { voiceId, reason: 'language' } : { voiceId: settings.voiceId, reason: 'no-voice' };
}

export interface VoiceRun {
  voiceId: string;
  /** UTF-16 offsets in the narrated text: from the first passage's start to the last one's end. */
  start: number;
  end: number;
  passages: Passage[];
}

/** Consecutive passages of one voice, in reading order: each run is narrated on its own (a voice change is a part boundary). */
export function voiceRuns(passages: readonly Passage[]): VoiceRun[] {
  const runs: VoiceRun[] = [];
  for (const passage of passages) {
    const last = runs.at(-1);
    if (last && last.voiceId === passage.voiceId) {
      last.end = passage.end;
      last.passages.push(passage);
    } else {
      runs.push({ voiceId: passage.voiceId, start: passage.start, end: passage.end, passages: [passage] });
    }
  }
  return runs;
}
