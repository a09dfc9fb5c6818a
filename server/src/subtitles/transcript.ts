/** A speech-to-text result (timed JSON segments or an SRT string) in the shapes editors download. */
import type { TranscriptDownloadFormat, TranscriptResult, TranscriptSegment } from '../../../shared/contracts/transcriptions';
import { containsSrtCues, formatSrt, parseSrt, srtToVtt, type Cue } from './srt';

export type Segment = TranscriptSegment;

export type DownloadFormat = TranscriptDownloadFormat;

export const DOWNLOAD_TYPES: Record<DownloadFormat, { mime: string; contentType: string; extension: string }> = {
  srt: { mime: 'application/x-subrip', contentType: 'application/x-subrip; charset=utf-8', extension: 'srt' },
  vtt: { mime: 'text/vtt', contentType: 'text/vtt; charset=utf-8', extension: 'vtt' },
  json: { mime: 'application/json', contentType: 'application/json; charset=utf-8', extension: 'json' },
};

export type TranscriptView = TranscriptResult;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function seconds(value: unknown): number | null {
  if (typeof value === 'number' && Number.isFinite(value)) return value;
  if (typeof value === 'string' && /^\s*\d+(\.\d+)?\s*$/.test(value)) return Number(value);
  return null;
}

const roundMs = (value: number) => Math.round(value * 1000) / 1000;

function toSegment(entry: unknown): Segment | null {
  if (!isRecord(entry)) return null;
  const start = seconds(entry.start ?? entry.start_time ?? entry.startTime);
  const end = seconds(entry.end ?? entry.end_time ?? entry.endTime);
  const text = typeof entry.text === 'string' ? entry.text.trim() : '';
  if (start === null || end === null || text === '' || start < 0 || end < start) return null;
  return { start: roundMs(start), end: roundMs(end), text };
}

function cueToSegment(cue: Cue): Segment {
  return { start: cue.startMs / 1000, end: cue.endMs / 1000, text: cue.text };
}

function segmentToCue(segment: Segment, position: number): Cue {
  return { index: position + 1, startMs: Math.round(segment.start * 1000), endMs: Math.round(segment.end * 1000), text: segment.text };
}

export function srtOf(subtitles: unknown): string | null {
  return containsSrtCues(subtitles) ? subtitles : null;
}

/** Accepts every shape the service may send; unreadable entries are skipped. */
export function segmentsFromSubtitles(subtitles: unknown): Segment[] {
  if (typeof subtitles === 'string') {
    const trimmed = subtitles.trim();
    if (trimmed.startsWith('[') || trimmed.startsWith('{')) {
      try {
        return segmentsFromSubtitles(JSON.parse(trimmed));
      } catch {
        return [];
      }
    }
    return parseSrt(subtitles).map(cueToSegment);
  }
  if (Array.isArray(subtitles)) {
    return subtitles.map(toSegment).filter((segment): segment is Segment => segment !== null);
  }
  if (isRecord(subtitles) && Array.isArray(subtitles.segments)) return segmentsFromSubtitles(subtitles.segments);
  return [];
}

/** Possibly empty: silence. */
export function isReadableSubtitles(subtitles: unknown): boolean {
  if (Array.isArray(subtitles)) return true;
  if (isRecord(subtitles)) return Array.isArray(subtitles.segments);
  if (typeof subtitles === 'string') return subtitles.trim() === '' || segmentsFromSubtitles(subtitles).length > 0;
  return false;
}

export function segmentsToSrt(segments: readonly Segment[]): string {
  return formatSrt(segments.map(segmentToCue));
}

/** Only styling tags and positioning codes go: "a < b > c" in speech stays as said. */
export function plainText(segments: readonly Segment[]): string {
  return segments
    .map((segment) => segment.text.replace(/<\/?(?:b|i|u|font)(?:\s[^<>]*)?>/gi, '').replace(/\{\\[^}]*\}/g, ''))
    .join(' ')
    .replace(/\s+/g, ' ')
    .trim();
}

export function transcriptView(subtitles: unknown): TranscriptView {
  const srt = srtOf(subtitles);
  const segments = segmentsFromSubtitles(subtitles);
  return {
    format: srt !== null ? 'srt' : 'json',
    segments,
    text: plainText(segments),
    srt,
  };
}

/** The service's own SRT when it sent one. */
export function renderTranscript(subtitles: unknown, format: DownloadFormat): string {
  const raw = srtOf(subtitles);
  const segments = segmentsFromSubtitles(subtitles);
  switch (format) {
    case 'srt':
      return raw !== null ? (raw.endsWith('\n') ? raw : `${raw}\n`) : segmentsToSrt(segments);
    case 'vtt':
      return srtToVtt(raw ?? segmentsToSrt(segments));
    case 'json':
      return `${JSON.stringify(segments, null, 2)}\n`;
  }
}
