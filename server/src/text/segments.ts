/**
 * The narrated text cut into the parts of a segmented narration (docs/segmented-narration.md). Pure:
 * no Strapi, no I/O.
 *
 * A part is paid for once per content (its key is a hash of its text, voice and preprocessType:
 * ../segments.ts), so where the cuts fall decides what an edit costs. Packing paragraphs greedily
 * would be fragile: lengthen paragraph 3 and paragraph 4 moves into the next part, whose last
 * paragraph moves into the one after, and every later part is paid again. Here most cuts are
 * chosen by the text itself (content-defined chunking): a paragraph starts a new part when a hash
 * of its own text says so, whatever came before it. After an edit, the first such paragraph past
 * the edited one starts a part exactly as before, and every part from there on is unchanged; only
 * the part holding the edit, and its neighbour when the edited paragraph starts or stops starting
 * a part, are new. The maximum still holds: a run of paragraphs between two such starts that is
 * longer than a part is cut where it must be, at the best kind of cut in the part's second half.
 *
 * These rules (and ANCHOR_SCHEME) decide the text of every part: change them only for a reason
 * worth narrating every segmented article again.
 */
import { createHash } from 'node:crypto';

import { CUT, cutToFit, trimmedSpan, type CodePointLength, type Span } from './cut-points';

/**
 * On average, a part starts every `ANCHOR_SPACING × maxCharacters` characters (a paragraph of
 * length L starts one with probability L / spacing). At half the maximum, a run between two
 * starts is longer than a part (and cut by length, where an edit can move cuts) only about once
 * in seven (e^-2). Measured on 20,000-character articles at the default 2,000 characters
 * (narration-segments.test.ts), ten one-paragraph edits pay 6.3% of what whole mode pays, in
 * about 22 parts; at 0.75, 8.1% in about 18; at 1, 9.3% in about 16. Greedy packing (no paragraph
 * starting a part by its hash) pays 10.9% in about 13, and for a paragraph added on top a median
 * of 7,000 characters (740 here). Parts cost nothing by themselves (only characters are paid), so
 * the cheaper edits win.
 */
const ANCHOR_SPACING = 0.5;

/** Part of every start's hash: bumping it moves every content-defined cut (and pays for every part again). */
const ANCHOR_SCHEME = 'segment-anchor/v1';

const isHighSurrogate = (code: number) => code >= 0xd800 && code <= 0xdbff;
const isLowSurrogate = (code: number) => code >= 0xdc00 && code <= 0xdfff;

/** Code points before each UTF-16 offset of `text`, so that the length of any slice is a subtraction. */
function codePointLengths(text: string): CodePointLength {
  const before = new Uint32Array(text.length + 1);
  for (let offset = 0; offset < text.length; offset += 1) {
    // The second half of a surrogate pair is the same code point as the first.
    const secondHalf = isLowSurrogate(text.charCodeAt(offset)) && offset > 0 && isHighSurrogate(text.charCodeAt(offset - 1));
    before[offset + 1] = before[offset] + (secondHalf ? 0 : 1);
  }
  return (start, end) => before[end] - before[start];
}

/** The paragraphs of the narrated text (describeArticle joins them with "\n\n"), trimmed; blank ones are skipped. */
function paragraphSpans(text: string): Span[] {
  const spans: Span[] = [];
  let start = 0;
  while (start <= text.length) {
    const separator = text.indexOf('\n\n', start);
    const end = separator < 0 ? text.length : separator;
    const span = trimmedSpan(text, start, end, CUT.paragraph);
    if (span) spans.push(span);
    start = end + 2;
  }
  return spans;
}

/** A number in [0, 1) drawn from the span's own text: the same text always draws the same number. */
function draw(text: string): number {
  return createHash('sha256').update(`${ANCHOR_SCHEME}\n${text}`, 'utf8').digest().readUInt32BE(0) / 2 ** 32;
}

/**
 * Whether a new part starts at this span whatever came before it. Only a paragraph, or a sentence
 * of a paragraph too long for one part, may start one (never a clause or a word): the chance grows
 * with the span's length, so parts average the same length whether paragraphs are short or long.
 */
function startsPart(text: string, span: Span, spacing: number, length: CodePointLength): boolean {
  if (span.cutBefore > CUT.sentence) return false;
  return draw(text.slice(span.start, span.end)) < length(span.start, span.end) / spacing;
}

/**
 * Where a part that has grown too long is cut: in its second half, at the best kind of cut there
 * (between paragraphs rather than sentences, sentences rather than words), the last of them; when
 * none is in the second half, just before the span that did not fit. Returns the index of the
 * span that starts the next part (`first` < index <= `next`).
 */
function cutByLength(spans: readonly Span[], first: number, next: number, maxCharacters: number, length: CodePointLength): number {
  let best = next;
  for (let index = next; index > first; index -= 1) {
    if (length(spans[first].start, spans[index - 1].end) * 2 < maxCharacters) break;
    if (spans[index].cutBefore < spans[best].cutBefore) best = index;
  }
  return best;
}

/** The index of the first span of each part. */
function partStarts(text: string, spans: readonly Span[], maxCharacters: number, length: CodePointLength): number[] {
  const starts = spans.length ? [0] : [];
  const spacing = maxCharacters * ANCHOR_SPACING;
  let first = 0;
  for (let index = 1; index < spans.length; index += 1) {
    if (startsPart(text, spans[index], spacing, length)) {
      starts.push(index);
      first = index;
      continue;
    }
    while (length(spans[first].start, spans[index].end) > maxCharacters) {
      first = cutByLength(spans, first, index, maxCharacters, length);
      starts.push(first);
    }
  }
  return starts;
}

/**
 * The narrated text in parts of at most `maxCharacters` code points each (counted as the service
 * counts: cost.ts), in reading order.
 *
 * - Cuts fall between paragraphs; a paragraph longer than a part is cut after a sentence
 *   (cut-points.ts: `.` `!` `?` `…` `؟` `؛` `۔`, closing quotes kept, decimals whole), a sentence
 *   still too long after a clause (`,` `،` `;` `:`), then between words, a word longer than a part
 *   inside it (never between a letter and its marks).
 * - No part is empty or only whitespace, and no text is lost or repeated: each part is a slice of
 *   the text with the whitespace at its edges trimmed, the slices in order, and only whitespace
 *   between one and the next ("\n\n" between paragraphs, the space or line break between
 *   sentences or words, nothing inside a word). So the parts joined with what lay between them give
 *   back the text, less any whitespace at its very start or end and any blank paragraph. Inside a
 *   part, the text is exactly the original's.
 * - Deterministic, and stable under edits (see the top of this file): an edit changes the parts
 *   around it, not the ones after.
 * - A text of at most `maxCharacters` is one part.
 *
 * '' or a text of whitespace gives no part. Throws on a `maxCharacters` that is not a positive integer.
 */
export function cutSegments(text: string, maxCharacters: number): string[] {
  if (!Number.isSafeInteger(maxCharacters) || maxCharacters < 1) {
    throw new RangeError(`maxCharacters must be a positive integer, got ${String(maxCharacters)}`);
  }
  const length = codePointLengths(text);
  const spans = paragraphSpans(text).flatMap((paragraph) => cutToFit(text, paragraph, maxCharacters, length));
  // A text that fits in one part is one part: cut by its paragraphs' hashes, a short article went
  // to the service in two or three requests, each waiting for a slot (behind long articles' parts),
  // to save a few hundred characters on an edit.
  if (spans.length && length(spans[0].start, spans[spans.length - 1].end) <= maxCharacters) {
    return [text.slice(spans[0].start, spans[spans.length - 1].end)];
  }
  const starts = partStarts(text, spans, maxCharacters, length);
  return starts.map((first, part) => {
    const last = (part + 1 < starts.length ? starts[part + 1] : spans.length) - 1;
    return text.slice(spans[first].start, spans[last].end);
  });
}
