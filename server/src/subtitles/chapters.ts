/**
 * Chapters from the article's headings and the narration's SRT. Cues are found in the submitted text
 * by letters and digits only, since a service may write a cue slightly differently from what it read;
 * a heading never read (audio cut short, a cue not found) has no chapter.
 */
import { formatVtt, type Cue } from './srt';

/** `offset`: UTF-16, in the submitted text. */
export interface TextHeading {
  offset: number;
  title: string;
}

export interface Chapter {
  startMs: number;
  endMs: number;
  title: string;
}

/** Without combining marks (accents, harakat) or tatweel, each letter with its offset in `text`. */
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

/** `leadTitle` names a chapter for what comes before the first heading (a title or an intro). */
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

/** JSON Chapters 1.2.0 (the Podcasting 2.0 `podcast:chapters` format): seconds, from the same headings as chaptersToVtt. */
export function chaptersToJson(
  chapters: readonly Chapter[],
  title: string | null
): { version: '1.2.0'; title?: string; chapters: Array<{ startTime: number; endTime: number; title: string }> } {
  return {
    version: '1.2.0',
    ...(title ? { title } : {}),
    chapters: chapters.map((chapter) => ({
      startTime: chapter.startMs / 1000,
      endTime: chapter.endMs / 1000,
      title: chapter.title.replace(/\s+/gu, ' ').trim(),
    })),
  };
}
