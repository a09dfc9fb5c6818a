import { formatSrt, formatVtt, parseSrt, type Cue } from './srt';

/**
 * A segmented narration's subtitles joined as its MP3 parts are. The shift is the exact cumulative
 * duration, rounded once (rounding each part would drift); cues are clipped to their part's audio,
 * and textless ones dropped, so the ranges still match a stored SRT read back.
 */

export interface CuesOfPart {
  cues: readonly Cue[];
  /** Exact: JoinedMp3Part.durationSeconds. */
  durationSeconds: number;
}

export interface JoinedCueRange {
  first: number;
  count: number;
  offsetMs: number;
  endMs: number;
  dropped: number;
}

export interface JoinedCues {
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

/** Timed from the part's start again: what joinCues takes to join the part once more. */
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
  srt: string;
  durationSeconds: number;
}

export function joinSrt(parts: readonly SrtOfPart[]): { srt: string; vtt: string; parts: JoinedCueRange[] } {
  const joined = joinCues(parts.map((part) => ({ cues: parseSrt(part.srt), durationSeconds: part.durationSeconds })));
  return { srt: formatSrt(joined.cues), vtt: formatVtt(joined.cues), parts: joined.parts };
}
