/**
 * Chapters of a narration: a WebVTT chapters track (`<track kind="chapters">`) from the article's
 * headings and the narration's SRT. The SRT's cues are the submitted text read aloud, sentence by
 * sentence, so each cue is found in that text, in order, comparing letters and digits only (case,
 * diacritics, punctuation and spacing aside: a service may write a cue slightly differently from
 * the text it read). A heading's chapter starts where the cue that reads its first words starts,
 * and lasts until the next chapter, the last one until the end of the audio. A heading whose
 * words were never read (audio cut short, a cue not found) has no chapter.
 *
 * Pure: no Strapi, no I/O.
 */
import { formatVtt, type Cue } from './srt';

/** A heading of the submitted text: where it starts (UTF-16 offset) and how it is written. */
export interface TextHeading {
  offset: number;
  title: string;
}

export interface Chapter {
  startMs: number;
  endMs: number;
  title: string;
}

/**
 * Letters and digits of `text`, lower-cased, without combining marks (Latin accents, Arabic
 * harakat) or tatweel, each with the offset in `text` where its character starts.
 */
export function skeleton(text: string): { letters: string; offsets: number[] } {
  let letters = '';
  const offsets: number[] = [];
  let offset = 0;
  for (const character of text) {
    const base = character
      .normalize('NFKD')
      .replace(/[\p{M}\u0640]/gu, '')
      .toLowerCase();
    for (const letter of base) {
      if (/[\p{L}\p{N}]/u.test(letter)) {
        letters += letter;
        offsets.push(offset);
      }
    }
    offset += character.length;
  }
  return { letters, offsets };
}

/**
 * The part of `text` each cue reads, as [start, end) positions in the text's skeleton; null for a
 * cue not found (after the previous one).
 */
function alignCues(letters: string, cues: readonly Cue[]): Array<{ cue: Cue; start: number; end: number } | null> {
  let cursor = 0;
  return cues.map((cue) => {
    const spoken = skeleton(cue.text).letters;
    if (!spoken) return null;
    const start = letters.indexOf(spoken, cursor);
    if (start < 0) return null;
    cursor = start + spoken.length;
    return { cue, start, end: cursor };
  });
}

/**
 * The chapters of a narration. `leadTitle`: when the first heading is not read at the very start
 * (a title or an intro comes first), a chapter with this title covers what comes before it.
 */
export function chaptersFromCues(
  text: string,
  headings: readonly TextHeading[],
  cues: readonly Cue[],
  leadTitle?: string | null
): Chapter[] {
  if (headings.length === 0 || cues.length === 0) return [];
  const { letters, offsets } = skeleton(text);
  const aligned = alignCues(letters, cues).filter((entry) => entry !== null);
  const starts: Array<{ startMs: number; title: string }> = [];
  for (const heading of headings) {
    // The heading's first letter in the skeleton, then the first cue that reads up to or past it.
    const first = offsets.findIndex((offset) => offset >= heading.offset);
    if (first < 0) break;
    const reading = aligned.find((entry) => entry.end > first);
    if (!reading) break;
    const previous = starts[starts.length - 1];
    // Two headings read by one cue share its start: the first (the outer one) names it.
    if (previous && reading.cue.startMs <= previous.startMs) continue;
    starts.push({ startMs: reading.cue.startMs, title: heading.title });
  }
  if (starts.length === 0) return [];
  const audioStart = cues[0].startMs;
  if (leadTitle && starts[0].startMs > audioStart) starts.unshift({ startMs: audioStart, title: leadTitle });
  const endOfAudio = Math.max(...cues.map((cue) => cue.endMs));
  return starts.map((chapter, index) => ({ ...chapter, endMs: starts[index + 1]?.startMs ?? endOfAudio }));
}

/** A WebVTT chapters track: one cue per chapter, its title on one line. */
export function chaptersToVtt(chapters: readonly Chapter[]): string {
  return formatVtt(
    chapters.map((chapter, position) => ({
      index: position + 1,
      startMs: chapter.startMs,
      endMs: chapter.endMs,
      text: chapter.title.replace(/\s+/gu, ' ').trim(),
    }))
  );
}
