import { formatSrt, formatVtt, parseSrt, type Cue } from './srt';

/**
 * The subtitles of a segmented narration joined into one list, as its MP3 parts are joined into one
 * file: each part's cues shifted by the time the preceding parts play, and back out again.
 *
 * The shift is the exact cumulative duration of the preceding parts (counted in MP3 frames, see
 * audio/mp3-join.ts), rounded to the millisecond once: adding each part's rounded duration would drift
 * by up to half a millisecond a part. A cue is kept inside its part's audio: its end is brought back to
 * the part's end (a service's timings may run a few milliseconds past its audio), and a cue that would
 * start there or later is dropped, as is a cue without text (which an SRT file cannot hold, so the
 * ranges below would no longer match a stored SRT read back).
 *
 * Pure: no Strapi, no I/O.
 */

export interface CuesOfPart {
  /** The part's cues, timed from the part's start. */
  cues: readonly Cue[];
  /** How long the part's audio plays, exact (JoinedMp3Part.durationSeconds). */
  durationSeconds: number;
}

/** Where a part's cues are in the joined list: `cues.slice(first, first + count)`, shifted by `offsetMs`. */
export interface JoinedCueRange {
  first: number;
  count: number;
  /** The part's start in the joined timeline. */
  offsetMs: number;
  /** The part's end in the joined timeline: no cue of the part runs past it. */
  endMs: number;
  /** The part's cues left out: starting at or after the part's end, or without text. */
  dropped: number;
}

export interface JoinedCues {
  /** In order, numbered 1..n. */
  cues: Cue[];
  parts: JoinedCueRange[];
}

export function joinCues(parts: readonly CuesOfPart[]): JoinedCues {
  const cues: Cue[] = [];
  const ranges: JoinedCueRange[] = [];
  let elapsedSeconds = 0;
  for (const part of parts) {
    const offsetMs = Math.round(elapsedSeconds * 1000);
    elapsedSeconds += part.durationSeconds;
    const endMs = Math.round(elapsedSeconds * 1000);
    const first = cues.length;
    // A stable sort: cues that start together keep the service's order.
    const ordered = [...part.cues].sort((a, b) => a.startMs - b.startMs);
    for (const cue of ordered) {
      const startMs = offsetMs + Math.max(0, cue.startMs);
      const cueEndMs = Math.min(offsetMs + cue.endMs, endMs);
      if (cueEndMs <= startMs || cue.text.trim() === '') continue;
      cues.push({ index: cues.length + 1, startMs, endMs: cueEndMs, text: cue.text });
    }
    ranges.push({ first, count: cues.length - first, offsetMs, endMs, dropped: part.cues.length - (cues.length - first) });
  }
  return { cues, parts: ranges };
}

/**
 * A part's cues taken back out of the joined list (or of a joined SRT read back with parseSrt), timed
 * from the part's start again and numbered 1..n: what joinCues takes to join the part once more.
 */
export function partCues(joined: readonly Cue[], range: Pick<JoinedCueRange, 'first' | 'count' | 'offsetMs'>): Cue[] {
  if (range.first < 0 || range.first + range.count > joined.length) {
    throw new RangeError(`cues ${range.first} to ${range.first + range.count} are not all in a list of ${joined.length}`);
  }
  return joined.slice(range.first, range.first + range.count).map((cue, position) => ({
    index: position + 1,
    startMs: cue.startMs - range.offsetMs,
    endMs: cue.endMs - range.offsetMs,
    text: cue.text,
  }));
}

export interface SrtOfPart {
  /** The part's SRT as the speech service sent it. */
  srt: string;
  durationSeconds: number;
}

/** The parts' SRT files joined: one SRT, its WebVTT twin, and where each part's cues are in them. */
export function joinSrt(parts: readonly SrtOfPart[]): { srt: string; vtt: string; parts: JoinedCueRange[] } {
  const joined = joinCues(parts.map((part) => ({ cues: parseSrt(part.srt), durationSeconds: part.durationSeconds })));
  return { srt: formatSrt(joined.cues), vtt: formatVtt(joined.cues), parts: joined.parts };
}
