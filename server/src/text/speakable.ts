/** Nothing invisible reaches the service, which charges every character; lines end where the narrator pauses. */

const FINAL_PUNCTUATION = new Set(['.', '!', '?', ':', '…', '؟', '۔', '。', '！', '？', '‼', '⁉']);
/** A line ending in these continues into the next ("Ingredients: eggs,") and already pauses: no full stop added. */
const PAUSE_PUNCTUATION = new Set([',', '،', ';', '؛']);
/** Looked through: `He said "Stop."` is already punctuated. */
const CLOSERS = new Set(['"', "'", '”', '’', '»', '›', ')', ']', '}', '」', '』']);

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

export function ensureSentenceEndPerLine(block: string): string {
  return block
    .split('\n')
    .map((line) => (line.trim() === '' ? line : ensureSentenceEnd(line)))
    .join('\n');
}

/**
 * Charged but silent: soft hyphen, zero-width space, BOM, bidi marks (text is sent in logical order).
 * ZWNJ and ZWJ are kept: they change how Persian/Arabic words and emoji read.
 */
const INVISIBLE = /[\u00AD\u200B\u200E\u200F\u202A-\u202E\u2060\u2066-\u2069\uFEFF]/gu;
// eslint-disable-next-line no-control-regex -- matching control characters is this pattern's purpose
const CONTROL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/gu;

/** NFC, whitespace runs as one space, trimmed. */
export function oneLine(value: string): string {
  return value.normalize('NFC').replace(/\s+/gu, ' ').trim();
}

/** Lines trimmed and collapsed, paragraphs separated by exactly one blank line. */
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
