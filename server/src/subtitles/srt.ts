/** SRT read leniently, written, and converted to WebVTT, the only caption format `<track>` accepts. */

export interface Cue {
  /** The block's index line when present, otherwise its position. */
  index: number;
  startMs: number;
  endMs: number;
  /** Never containing an empty line. */
  text: string;
}

/** Tolerant of '.' before milliseconds, missing hours, short fractions and trailing position settings. */
const TIMING_LINE = /^\s*((?:\d+:)?\d{1,2}:\d{1,2}(?:[.,]\d{1,3})?)\s*-->\s*((?:\d+:)?\d{1,2}:\d{1,2}(?:[.,]\d{1,3})?)(?:\s.*)?$/;
const TIMESTAMP = /^(?:(\d+):)?(\d{1,2}):(\d{1,2})(?:[.,](\d{1,3}))?$/;
const INDEX_LINE = /^\s*\d+\s*$/;

function normaliseNewlines(text: string): string {
  return text.replace(/^\uFEFF/, '').replace(/\r\n?/g, '\n');
}

/** Null when minutes or seconds are 60 or more. */
function parseTimestamp(value: string): number | null {
  const match = TIMESTAMP.exec(value);
  if (!match) return null;
  const hours = Number(match[1] ?? '0');
  const minutes = Number(match[2]);
  const seconds = Number(match[3]);
  const millis = match[4] === undefined ? 0 : Number(match[4].padEnd(3, '0'));
  if (minutes >= 60 || seconds >= 60) return null;
  return ((hours * 60 + minutes) * 60 + seconds) * 1000 + millis;
}

interface OpenCue {
  index: number | null;
  startMs: number;
  endMs: number;
  lines: string[];
  valid: boolean;
}

/**
 * Lenient: a BOM, CR line ends, missing indexes and extra blank lines are accepted. Text after a
 * blank line inside a cue (which the service should not write) is kept with that cue rather than lost.
 */
export function parseSrt(srt: string): Cue[] {
  const lines = normaliseNewlines(srt).split('\n');
  const cues: Cue[] = [];
  let current: OpenCue | null = null;
  let currentClosed = false; // a blank line has ended the current cue's text
  let pendingIndex: number | null = null; // a number line seen while no cue text was open

  const finish = (): void => {
    if (!current) return;
    const text = current.lines.join('\n').trim();
    if (current.valid && text !== '') {
      cues.push({ index: current.index ?? cues.length + 1, startMs: current.startMs, endMs: current.endMs, text });
    }
    current = null;
  };

  for (const rawLine of lines) {
    const line = rawLine.replace(/\s+$/, '');
    const timing = TIMING_LINE.exec(line);
    if (timing) {
      let index = pendingIndex;
      if (current && !currentClosed && current.lines.length > 0 && INDEX_LINE.test(current.lines[current.lines.length - 1])) {
        index = Number(current.lines.pop());
      }
      finish();
      const startMs = parseTimestamp(timing[1]);
      const endMs = parseTimestamp(timing[2]);
      const valid = startMs !== null && endMs !== null && endMs > startMs;
      current = { index, startMs: startMs ?? 0, endMs: endMs ?? 0, lines: [], valid };
      currentClosed = false;
      pendingIndex = null;
      continue;
    }
    if (line.trim() === '') {
      currentClosed = true;
      continue;
    }
    if (current && !currentClosed) {
      current.lines.push(line);
    } else if (INDEX_LINE.test(line)) {
      pendingIndex = Number(line.trim());
    } else if (current && pendingIndex === null) {
      current.lines.push(line);
      currentClosed = false;
    }
  }
  finish();
  return cues;
}

function pad(value: number, width: number): string {
  return String(value).padStart(width, '0');
}

function formatTimestamp(ms: number, millisSeparator: ',' | '.'): string {
  const total = Math.max(0, Math.round(ms));
  const millis = total % 1000;
  const totalSeconds = Math.floor(total / 1000);
  const seconds = totalSeconds % 60;
  const minutes = Math.floor(totalSeconds / 60) % 60;
  const hours = Math.floor(totalSeconds / 3600);
  return `${pad(hours, 2)}:${pad(minutes, 2)}:${pad(seconds, 2)}${millisSeparator}${pad(millis, 3)}`;
}

/** Empty lines would end the cue early in both SRT and VTT. */
function cueTextLines(text: string): string[] {
  return normaliseNewlines(text)
    .split('\n')
    .map((line) => line.replace(/\s+$/, ''))
    .filter((line) => line.trim() !== '');
}

/** Numbered 1..n: players require a sequence. */
export function formatSrt(cues: readonly Cue[]): string {
  return cues
    .map((cue, position) => {
      const timing = `${formatTimestamp(cue.startMs, ',')} --> ${formatTimestamp(cue.endMs, ',')}`;
      return `${position + 1}\n${timing}\n${cueTextLines(cue.text).join('\n')}\n`;
    })
    .join('\n');
}

const VTT_KEPT_TAG = /^<\/?(?:b|i|u)>$/i;

/** Escaping '>' also turns "-->" in the text into "--&gt;", which a parser would read as a timing line. */
function toVttCueText(text: string): string {
  const withoutAssTags = text.replace(/\{\\[^}]*\}/g, ''); // "{\an8}"-style positioning codes
  return cueTextLines(withoutAssTags)
    .map((line) =>
      line
        .split(/(<[^<>]*>)/)
        .map((part) => {
          if (VTT_KEPT_TAG.test(part)) return part.toLowerCase();
          if (/^<[/a-zA-Z][^<>]*>$/.test(part)) return '';
          return part.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
        })
        .join('')
    )
    .filter((line) => line.trim() !== '')
    .join('\n');
}

export function narrationDuration(srt: string): number | null {
  const cues = parseSrt(srt);
  if (cues.length === 0) return null;
  return Math.max(...cues.map((cue) => cue.endMs)) / 1000;
}

export function srtToVtt(srt: string): string {
  return formatVtt(parseSrt(srt));
}

export function formatVtt(cues: readonly Cue[]): string {
  const body = cues
    .map((cue, position) => {
      const text = toVttCueText(cue.text);
      if (text === '') return null;
      const timing = `${formatTimestamp(cue.startMs, '.')} --> ${formatTimestamp(cue.endMs, '.')}`;
      return `${position + 1}\n${timing}\n${text}\n`;
    })
    .filter((block): block is string => block !== null)
    .join('\n');
  return `WEBVTT\n\n${body}`;
}

/** Lenient, like parseSrt: for text already received whole (a transcription result). */
export function containsSrtCues(text: unknown): text is string {
  if (typeof text !== 'string') return false;
  const normalised = normaliseNewlines(text).trimStart();
  if (normalised.startsWith('WEBVTT')) return false;
  return parseSrt(normalised).length > 0;
}
