/**
 * SRT: reading it leniently, writing it, and converting it to WebVTT, the only caption format an
 * HTML `<track>` element accepts. Narrations come with an SRT file (spec 2.3); a transcription may
 * come as SRT too (see transcript.ts).
 *
 * Pure: no Strapi, no I/O.
 */

export interface Cue {
  /** 1-based sequence number: the index line of the block when present, otherwise its position. */
  index: number;
  startMs: number;
  endMs: number;
  /** Cue text; lines separated by "\n", never containing an empty line. */
  text: string;
}

/**
 * "HH:MM:SS,mmm --> HH:MM:SS,mmm", tolerant of '.' as millisecond separator, missing hours,
 * one- to three-digit fractions and trailing position settings ("X1:... Y1:...").
 */
const TIMING_LINE = /^\s*((?:\d+:)?\d{1,2}:\d{1,2}(?:[.,]\d{1,3})?)\s*-->\s*((?:\d+:)?\d{1,2}:\d{1,2}(?:[.,]\d{1,3})?)(?:\s.*)?$/;
const TIMESTAMP = /^(?:(\d+):)?(\d{1,2}):(\d{1,2})(?:[.,](\d{1,3}))?$/;
const INDEX_LINE = /^\s*\d+\s*$/;

function normaliseNewlines(text: string): string {
  return text.replace(/^\uFEFF/, '').replace(/\r\n?/g, '\n');
}

/** Milliseconds for a timestamp, or null when a field is out of range (minutes or seconds >= 60). */
function parseTimestamp(value: string): number | null {
  const match = TIMESTAMP.exec(value);
  if (!match) return null;
  const hours = Number(match[1] ?? '0');
  const minutes = Number(match[2]);
  const seconds = Number(match[3]);
  // A fraction is a decimal fraction of a second: ",5" is 500 ms, not 5 ms.
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
 * Parses SRT leniently: a BOM, CRLF or CR line ends, missing index lines, extra blank lines and
 * '.' or ',' before milliseconds are all accepted. Blocks whose timing is unreadable or whose end
 * is not after their start, and cues without text, are skipped. A text line that follows a blank
 * line inside a cue (a blank line the service should not have written) is kept with that cue
 * rather than lost; a lone number after a blank line is taken as the next cue's index.
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
      // Without a blank line before it, the previous cue's last text line may be this cue's index.
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
    // Otherwise: text before the first cue (a header or stray text) or after an orphan index; skipped.
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

/** Lines of cue text without empty lines, which would end the cue early in both SRT and VTT. */
function cueTextLines(text: string): string[] {
  return normaliseNewlines(text)
    .split('\n')
    .map((line) => line.replace(/\s+$/, ''))
    .filter((line) => line.trim() !== '');
}

/** Writes SRT with cues numbered 1..n in the given order (players require a sequence). */
export function formatSrt(cues: readonly Cue[]): string {
  return cues
    .map((cue, position) => {
      const timing = `${formatTimestamp(cue.startMs, ',')} --> ${formatTimestamp(cue.endMs, ',')}`;
      return `${position + 1}\n${timing}\n${cueTextLines(cue.text).join('\n')}\n`;
    })
    .join('\n');
}

/** SRT styling tags that WebVTT also understands; every other tag (e.g. `<font>`) is removed. */
const VTT_KEPT_TAG = /^<\/?(?:b|i|u)>$/i;

/**
 * Escapes cue text for WebVTT: '&', '<' and '>' become entities except around <b>, <i>, <u>.
 * Escaping '>' also turns any "-->" in the text into "--&gt;", which a VTT parser would otherwise
 * read as a timing line and so break the file.
 */
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

/** The length of a narration as its subtitles tell it: the end of the last cue, in seconds (ms precision). */
export function narrationDuration(srt: string): number | null {
  const cues = parseSrt(srt);
  if (cues.length === 0) return null;
  return Math.max(...cues.map((cue) => cue.endMs)) / 1000;
}

/**
 * Converts SRT to WebVTT for an HTML `<track>`: "WEBVTT" header, `HH:MM:SS.mmm` timestamps,
 * numeric cue identifiers, cue text kept (escaped, see toVttCueText). Unreadable blocks of the
 * SRT are dropped, as parseSrt does.
 */
export function srtToVtt(srt: string): string {
  return formatVtt(parseSrt(srt));
}

/** Writes WebVTT with cues numbered 1..n in the given order, their text escaped (see toVttCueText). */
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

/**
 * True for a string that holds at least one readable SRT cue anywhere (and is not a WebVTT file).
 * Lenient, like parseSrt: for text already received whole (a transcription result).
 */
export function containsSrtCues(text: unknown): text is string {
  if (typeof text !== 'string') return false;
  const normalised = normaliseNewlines(text).trimStart();
  if (normalised.startsWith('WEBVTT')) return false;
  return parseSrt(normalised).length > 0;
}
