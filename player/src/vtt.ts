/**
 * WebVTT cues, read by the player from the narration's subtitles and chapters tracks. Only what
 * the plugin writes and a hand-made file may hold: the header and NOTE/STYLE/REGION blocks are
 * skipped, cue settings after the timing are ignored, tags are dropped and the few entities
 * WebVTT defines are decoded. Pure: no DOM.
 */

export interface Cue {
  /** Seconds. */
  start: number;
  end: number;
  text: string;
}

/** `hh:mm:ss.ttt` or `mm:ss.ttt` (WebVTT), also with a comma (SRT) for lenience. */
const TIMESTAMP = '((?:\\d+:)?\\d{1,2}:\\d{2}[.,]\\d{1,3})';
const TIMING = new RegExp(`^${TIMESTAMP}\\s*-->\\s*${TIMESTAMP}`);

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\u00a0', lrm: '\u200e', rlm: '\u200f' };

/** Seconds in a cue timestamp. */
export function parseTimestamp(value: string): number {
  const parts = value.replace(',', '.').split(':').map(Number);
  return parts.reduce((total, part) => total * 60 + part, 0);
}

/** The text of a cue: tags (`<b>`, `<v Speaker>`, `<00:00:01.000>`) removed, entities decoded, lines joined. */
export function cueText(payload: string): string {
  // Spaces are collapsed before entities are decoded, so that an encoded no-break space stays one.
  return payload
    .replace(/<[^>]*>/g, '')
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/&(#x[\da-f]+|#\d+|[a-z]+);/gi, (entity, name: string) => {
      if (name[0] !== '#') return ENTITIES[name.toLowerCase()] ?? entity;
      const code = name[1] === 'x' || name[1] === 'X' ? parseInt(name.slice(2), 16) : Number(name.slice(1));
      return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : entity;
    });
}

/** The cues of a WebVTT file, by start time; cues without text or with an unreadable timing are left out. */
export function parseVtt(text: string): Cue[] {
  const cues: Cue[] = [];
  for (const block of text
    .replace(/^\ufeff/, '')
    .replace(/\r\n?/g, '\n')
    .split(/\n{2,}/)) {
    const lines = block.split('\n');
    const timingLine = lines.findIndex((line) => line.includes('-->'));
    const timing = timingLine < 0 ? null : TIMING.exec(lines[timingLine].trim());
    if (!timing) continue;
    const cue = { start: parseTimestamp(timing[1]), end: parseTimestamp(timing[2]), text: cueText(lines.slice(timingLine + 1).join('\n')) };
    if (cue.text && cue.end >= cue.start) cues.push(cue);
  }
  // Stable: cues that start together keep the file's order.
  return cues.sort((a, b) => a.start - b.start);
}
