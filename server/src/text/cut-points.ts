/**
 * Where a paragraph too long for one segment may be cut (segments.ts). These rules decide each
 * part's text and so its key: change them only for a reason worth re-narrating such paragraphs.
 */

/** Best first: a part starts where the narrator would pause the longest. */
export const CUT = { paragraph: 0, sentence: 1, clause: 2, word: 3, insideWord: 4 } as const;
export type CutKind = (typeof CUT)[keyof typeof CUT];

/** `[start, end)` in UTF-16 offsets, never empty, trimmed. */
export interface Span {
  start: number;
  end: number;
  cutBefore: CutKind;
}

/** Code points, as the service counts characters (cost.ts). */
export type CodePointLength = (start: number, end: number) => number;

/** A closing quote stays with its sentence. */
const CLOSERS = `"'”’»›)\\]}」』`;

/**
 * Whitespace is required after the end so decimals, versions and addresses stay whole (`3.14`,
 * `example.com`); a lowercase letter after it continues the sentence (`e.g. the`). CJK stops need no space.
 */
const SENTENCE_END = new RegExp(`[.!?…‼⁉؟؛۔]+[${CLOSERS}]*(?=\\s+(?![\\s\\p{Ll}]))|[。！？]+[${CLOSERS}]*`, 'gu');

/** Only for sentences longer than a segment (Arabic prose chains clauses with `،`); whitespace keeps `3,000` whole. */
const CLAUSE_END = new RegExp(`[,،;:][${CLOSERS}]*(?=\\s)`, 'gu');

const WORD_GAP = /\s+/gu;

const CUT_RULES: ReadonlyArray<{ kind: CutKind; pattern: RegExp }> = [
  { kind: CUT.sentence, pattern: SENTENCE_END },
  { kind: CUT.clause, pattern: CLAUSE_END },
  { kind: CUT.word, pattern: WORD_GAP },
];

const isSpace = (char: string) => /\s/u.test(char);

export function trimmedSpan(text: string, start: number, end: number, cutBefore: CutKind): Span | null {
  let from = start;
  let to = end;
  while (from < to && isSpace(text[from])) from += 1;
  while (to > from && isSpace(text[to - 1])) to -= 1;
  return from < to ? { start: from, end: to, cutBefore } : null;
}

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

/** Code points that join the one before them: joiners, variation selectors, skin tones, emoji tags. */
const JOINING_RANGES: ReadonlyArray<readonly [number, number]> = [
  [0x200c, 0x200d],
  [0xfe00, 0xfe0f],
  [0x1f3fb, 0x1f3ff],
  [0xe0020, 0xe007f],
];

/** Never cut inside what is shown as one character (combining marks, joiners, selectors, skin tones). */
function canCutBefore(text: string, offset: number): boolean {
  const codePoint = text.codePointAt(offset)!;
  if (MARK.test(String.fromCodePoint(codePoint))) return false;
  if (JOINING_RANGES.some(([first, last]) => codePoint >= first && codePoint <= last)) return false;
  return text[offset - 1] !== '\u200D';
}

/** A word longer than a segment; each cut moved back over marks and joiners. */
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

export function cutToFit(text: string, span: Span, maxCharacters: number, length: CodePointLength, rule = 0): Span[] {
  if (length(span.start, span.end) <= maxCharacters) return [span];
  if (rule === CUT_RULES.length) return cutInsideWord(text, span, maxCharacters);
  const { kind, pattern } = CUT_RULES[rule];
  return cutAfterMatches(text, span, pattern, kind).flatMap((piece) => cutToFit(text, piece, maxCharacters, length, rule + 1));
}
