/**
 * Where a paragraph too long for one segment may be cut (segments.ts): after a sentence, then after
 * a clause, then between words, and a word longer than a segment anywhere that does not split what
 * is read as one character. Pure: no Strapi, no I/O.
 *
 * These rules decide the text of each part of a segmented narration, and so its key (a part is
 * paid for once per key): change them only for a reason worth narrating such paragraphs again.
 */

/** How good a cut is for the listener, best first: a part starts where the narrator would pause the longest. */
export const CUT = { paragraph: 0, sentence: 1, clause: 2, word: 3, insideWord: 4 } as const;
export type CutKind = (typeof CUT)[keyof typeof CUT];

/**
 * A slice `[start, end)` of the text (UTF-16 offsets), never empty, with no whitespace at its
 * edges; `cutBefore`: what kind of cut separates it from the span before it.
 */
export interface Span {
  start: number;
  end: number;
  cutBefore: CutKind;
}

/** Code points of the slice `[start, end)`: the service counts characters so (cost.ts). */
export type CodePointLength = (start: number, end: number) => number;

/** Quotes and brackets closing a sentence stay with it: `He said "Stop." Then` is cut after the quote. */
const CLOSERS = `"'”’»›)\\]}」』`;

/**
 * The end of a sentence: `.` `!` `?` `…` (and `‼` `⁉`), Arabic `؟` `؛` and Urdu `۔`, any run of
 * them (`?!`, `...`), the closers after them, then whitespace. Requiring the whitespace keeps
 * decimals, times, versions and addresses whole (`3.14`, `٣.١٤`, `v1.2`, `example.com`; Arabic's
 * own decimal separator `٫` is not an end at all). A lowercase letter after the whitespace
 * continues the sentence (`e.g. the`, `approx. five`, `so… we`). Chinese and Japanese full stops
 * need no space after them.
 */
const SENTENCE_END = new RegExp(`[.!?…‼⁉؟؛۔]+[${CLOSERS}]*(?=\\s+(?![\\s\\p{Ll}]))|[。！？]+[${CLOSERS}]*`, 'gu');

/**
 * A clause within a sentence: `,` `،` `;` `:`, then whitespace (so `3,000` and `١٬٠٠٠` stay whole).
 * Only a sentence longer than a whole segment is cut here (Arabic prose often chains many clauses
 * with `،` into one long sentence): a pause the narrator makes anyway, better than a word boundary,
 * worse than a sentence end. The Arabic semicolon `؛` ends a sentence (SENTENCE_END).
 */
const CLAUSE_END = new RegExp(`[,،;:][${CLOSERS}]*(?=\\s)`, 'gu');

/** Between words: a cut after a run of whitespace (trimmed away from both sides). */
const WORD_GAP = /\s+/gu;

/** The cuts tried in turn on a span still longer than a segment. */
const CUT_RULES: ReadonlyArray<{ kind: CutKind; pattern: RegExp }> = [
  { kind: CUT.sentence, pattern: SENTENCE_END },
  { kind: CUT.clause, pattern: CLAUSE_END },
  { kind: CUT.word, pattern: WORD_GAP },
];

const isSpace = (char: string) => /\s/u.test(char);

/** `[start, end)` without whitespace at its edges, or null when nothing else is left. */
export function trimmedSpan(text: string, start: number, end: number, cutBefore: CutKind): Span | null {
  let from = start;
  let to = end;
  while (from < to && isSpace(text[from])) from += 1;
  while (to > from && isSpace(text[to - 1])) to -= 1;
  return from < to ? { start: from, end: to, cutBefore } : null;
}

/** The span cut after every match of `pattern` inside it; the first piece keeps the span's own cut. */
function cutAfterMatches(text: string, span: Span, pattern: RegExp, kind: CutKind): Span[] {
  const inside = text.slice(span.start, span.end);
  const pieces: Span[] = [];
  let from = span.start;
  for (const match of inside.matchAll(pattern)) {
    const cut = span.start + (match.index ?? 0) + match[0].length;
    if (cut >= span.end) break;
    const piece = trimmedSpan(text, from, cut, pieces.length ? kind : span.cutBefore);
    if (piece) pieces.push(piece);
    from = cut;
  }
  const last = trimmedSpan(text, from, span.end, pieces.length ? kind : span.cutBefore);
  if (last) pieces.push(last);
  return pieces;
}

const MARK = /^\p{M}$/u;

/** Ranges of code points that join the one before them: joiners, variation selectors, skin tones, emoji tags. */
const JOINING_RANGES: ReadonlyArray<readonly [number, number]> = [
  [0x200c, 0x200d],
  [0xfe00, 0xfe0f],
  [0x1f3fb, 0x1f3ff],
  [0xe0020, 0xe007f],
];

/**
 * Whether a cut may fall before this offset: not before a code point that belongs to the one
 * before it (a combining mark such as the Arabic harakat, a joiner, a variation selector, a skin
 * tone, an emoji tag), nor after a zero-width joiner; either would split what is read and shown
 * as one character.
 */
function canCutBefore(text: string, offset: number): boolean {
  const codePoint = text.codePointAt(offset)!;
  if (MARK.test(String.fromCodePoint(codePoint))) return false;
  if (JOINING_RANGES.some(([first, last]) => codePoint >= first && codePoint <= last)) return false;
  return text[offset - 1] !== '\u200D';
}

/**
 * A word longer than a segment, in pieces of at most `maxCharacters` code points, each cut moved
 * back over marks and joiners (`maxCharacters` is far longer than any such cluster; when none
 * allows a cut, the piece is cut at the maximum all the same).
 */
function cutInsideWord(text: string, span: Span, maxCharacters: number): Span[] {
  const starts: number[] = [];
  for (let offset = span.start; offset < span.end; offset += text.codePointAt(offset)! > 0xffff ? 2 : 1) starts.push(offset);
  starts.push(span.end);
  const pieces: Span[] = [];
  let first = 0;
  while (first < starts.length - 1) {
    let next = Math.min(first + maxCharacters, starts.length - 1);
    if (next < starts.length - 1) {
      let safe = next;
      while (safe > first + 1 && !canCutBefore(text, starts[safe])) safe -= 1;
      if (canCutBefore(text, starts[safe])) next = safe;
    }
    pieces.push({ start: starts[first], end: starts[next], cutBefore: pieces.length ? CUT.insideWord : span.cutBefore });
    first = next;
  }
  return pieces;
}

/**
 * A span in pieces of at most `maxCharacters` code points each: as it is when it fits; otherwise cut
 * after its sentences, a sentence still too long after its clauses, a clause between its words,
 * and a word inside it. Every piece is a trimmed slice of the span, in order; only whitespace lies
 * between two pieces (nothing at all inside a word).
 */
export function cutToFit(text: string, span: Span, maxCharacters: number, length: CodePointLength, rule = 0): Span[] {
  if (length(span.start, span.end) <= maxCharacters) return [span];
  if (rule === CUT_RULES.length) return cutInsideWord(text, span, maxCharacters);
  const { kind, pattern } = CUT_RULES[rule];
  return cutAfterMatches(text, span, pattern, kind).flatMap((piece) => cutToFit(text, piece, maxCharacters, length, rule + 1));
}
