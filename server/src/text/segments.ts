/**
 * The narrated text cut into segment parts (docs/segmented-narration.md). A part is paid once per
 * content, so most cuts are chosen by a hash of the paragraph itself (content-defined chunking):
 * an edit re-pays only the parts around it, not every later one as greedy packing would.
 * Changing these rules (or ANCHOR_SCHEME) re-narrates every segmented article.
 */
import { createHash } from 'node:crypto';

import { CUT, cutToFit, trimmedSpan, type CodePointLength, type Span } from './cut-points';

/** Half the maximum: runs longer than a part are rare (e^-2), and more, shorter parts make edits cheaper. */
const ANCHOR_SPACING = 0.5;

/** Part of every start's hash: bumping it moves every content-defined cut (and pays for every part again). */
const ANCHOR_SCHEME = 'segment-anchor/v1';

const isHighSurrogate = (code: number) => code >= 0xd800 && code <= 0xdbff;
const isLowSurrogate = (code: number) => code >= 0xdc00 && code <= 0xdfff;

function codePointLengths(text: string): CodePointLength {
  const before = new Uint32Array(text.length + 1);
  for (let offset = 0; offset < text.length; offset += 1) {
    // The second half of a surrogate pair is the same code point as the first.
    const secondHalf = isLowSurrogate(text.charCodeAt(offset)) && offset > 0 && isHighSurrogate(text.charCodeAt(offset - 1));
    before[offset + 1] = before[offset] + (secondHalf ? 0 : 1);
  }
  return (start, end) => before[end] - before[start];
}

/** describeArticle joins paragraphs with "\n\n"; blank ones are skipped. */
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

/** The same text always draws the same number in [0, 1). */
function draw(text: string): number {
  return createHash('sha256').update(`${ANCHOR_SCHEME}\n${text}`, 'utf8').digest().readUInt32BE(0) / 2 ** 32;
}

/** Only a paragraph or sentence may start a part; the chance grows with length, so parts average the same. */
function startsPart(text: string, span: Span, spacing: number, length: CodePointLength): boolean {
  if (span.cutBefore > CUT.sentence) return false;
  return draw(text.slice(span.start, span.end)) < length(span.start, span.end) / spacing;
}

/** Cut a too-long part in its second half at the best kind of cut; returns the index starting the next part. */
function cutByLength(spans: readonly Span[], first: number, next: number, maxCharacters: number, length: CodePointLength): number {
  let best = next;
  for (let index = next; index > first; index -= 1) {
    if (length(spans[first].start, spans[index - 1].end) * 2 < maxCharacters) break;
    if (spans[index].cutBefore < spans[best].cutBefore) best = index;
  }
  return best;
}

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
 * Parts of at most `maxCharacters` code points (as the service counts: cost.ts), trimmed slices in
 * order with only whitespace between them; an edit changes the parts around it, not later ones.
 */
export function cutSegments(text: string, maxCharacters: number): string[] {
  if (!Number.isSafeInteger(maxCharacters) || maxCharacters < 1) {
    throw new RangeError(`maxCharacters must be a positive integer, got ${String(maxCharacters)}`);
  }
  const length = codePointLengths(text);
  const spans = paragraphSpans(text).flatMap((paragraph) => cutToFit(text, paragraph, maxCharacters, length));
  // One part when it fits: each extra request waits for a slot behind long articles' parts.
  if (spans.length && length(spans[0].start, spans[spans.length - 1].end) <= maxCharacters) {
    return [text.slice(spans[0].start, spans[spans.length - 1].end)];
  }
  const starts = partStarts(text, spans, maxCharacters, length);
  return starts.map((first, part) => {
    const last = (part + 1 < starts.length ? starts[part + 1] : spans.length) - 1;
    return text.slice(spans[first].start, spans[last].end);
  });
}
