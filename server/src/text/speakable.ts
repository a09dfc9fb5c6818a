/**
 * Punctuation and whitespace of what is spoken: a line ends where the narrator should pause, and
 * nothing invisible (or merely typographic) reaches the service, which charges every character.
 * Pure: no Strapi, no I/O.
 */

/** A line ending in one of these already makes the narrator stop (Latin, Arabic, Urdu, CJK). */
const FINAL_PUNCTUATION = new Set(['.', '!', '?', ':', '…', '؟', '۔', '。', '！', '？', '‼', '⁉']);
/**
 * A line ending in one of these continues into the next line ("Ingredients: eggs,"), and a
 * comma already makes the narrator pause, so no full stop is added after it.
 */
const PAUSE_PUNCTUATION = new Set([',', '،', ';', '؛']);
/** Closing quotes and brackets are looked through: `He said "Stop."` is already punctuated. */
const CLOSERS = new Set(['"', "'", '”', '’', '»', '›', ')', ']', '}', '」', '』']);

/** Appends "." to a line that does not end in final or pause punctuation (after any closers). */
export function ensureSentenceEnd(line: string): string {
  const trimmed = line.replace(/\s+$/u, '');
  const chars = [...trimmed];
  let last = chars.length - 1;
  while (last >= 0 && CLOSERS.has(chars[last])) last -= 1;
  if (last < 0) return trimmed; // empty, or only quotes/brackets: nothing to punctuate
  const final = chars[last];
  if (FINAL_PUNCTUATION.has(final) || PAUSE_PUNCTUATION.has(final)) return trimmed;
  return `${trimmed}.`;
}

/** ensureSentenceEnd on every non-empty line of a block (headings with <br>, list items). */
export function ensureSentenceEndPerLine(block: string): string {
  return block
    .split('\n')
    .map((line) => (line.trim() === '' ? line : ensureSentenceEnd(line)))
    .join('\n');
}

/**
 * Invisible characters that carry no speech but would be charged as characters: soft hyphen,
 * zero-width space, byte-order mark, and bidirectional marks/embeddings/isolates (the text is
 * sent as logical-order Unicode, so direction marks are only a display concern).
 * ZWNJ and ZWJ (U+200C, U+200D) are kept: they change how Persian/Arabic words and emoji read.
 */
const INVISIBLE = /[\u00AD\u200B\u200E\u200F\u202A-\u202E\u2060\u2066-\u2069\uFEFF]/gu;
/** Control characters other than tab and line feed (which the whitespace rules handle). */
// eslint-disable-next-line no-control-regex -- matching control characters is this pattern's purpose
const CONTROL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/gu;

/** One line of text (`{title}`, `{author}`, a lexicon term): NFC, every run of whitespace one space, trimmed. */
export function oneLine(value: string): string {
  return value.normalize('NFC').replace(/\s+/gu, ' ').trim();
}

/**
 * Canonical layout: lines trimmed with inner whitespace collapsed, empty lines only as single
 * paragraph separators, nothing before the first or after the last paragraph.
 */
export function normaliseNarrationText(text: string): string {
  const lines = text
    .normalize('NFC')
    .replace(/\r\n?|[\u2028\u2029\u0085]/gu, '\n')
    .replace(INVISIBLE, '')
    .replace(CONTROL, ' ')
    .split('\n')
    .map((line) => line.replace(/[^\S\n]+/gu, ' ').trim());

  const paragraphs: string[] = [];
  let current: string[] = [];
  for (const line of lines) {
    if (line === '') {
      if (current.length > 0) paragraphs.push(current.join('\n'));
      current = [];
    } else {
      current.push(line);
    }
  }
  if (current.length > 0) paragraphs.push(current.join('\n'));
  return paragraphs.join('\n\n');
}
