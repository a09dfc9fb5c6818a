import { id3v2TagLength, parseMpegFrameHeader, type MpegFrameHeader } from './mp3-sniff';

/**
 * How long an MP3 plays, fed chunk by chunk so a long narration is never held in memory. Null,
 * never an exception, when the frames stop at something that is neither the end nor a trailing
 * tag: the duration of a damaged file would be a guess.
 */

/** Enough of the first frame to find a Xing/Info or VBRI tag with its counts. */
const FIRST_FRAME_PROBE_BYTES = 4 + 32 + 18;
const TRAILING_TAGS = ['TAG', 'APETAGEX', 'LYRICSBEGIN'];
const LONGEST_TRAILING_TAG = Math.max(...TRAILING_TAGS.map((tag) => tag.length));
/** More than any step reads at once. */
const JOIN_BYTES = 4096;

export function samplesPerFrame(header: Pick<MpegFrameHeader, 'layer' | 'version'>): number {
  if (header.layer === 1) return 384;
  // Layer III of MPEG 2 and 2.5 carries half the samples of MPEG 1.
  return header.layer === 3 && header.version !== 1 ? 576 : 1152;
}

const readUint32 = (bytes: Uint8Array, offset: number) =>
  ((bytes[offset]! << 24) | (bytes[offset + 1]! << 16) | (bytes[offset + 2]! << 8) | bytes[offset + 3]!) >>> 0;

const startsWith = (bytes: Uint8Array, offset: number, text: string) =>
  offset + text.length <= bytes.length && [...text].every((char, i) => bytes[offset + i] === char.charCodeAt(0));

/** `{ silent: true }`: a Xing/Info tag without a count, whose frame is skipped, not counted. */
export function declaredFrameCount(frame: Uint8Array, header: MpegFrameHeader): { frames: number } | { silent: true } | null {
  if (header.layer !== 3) return null;
  const mono = frame[3]! >> 6 === 0b11;
  // The Xing tag follows the side information, whose size depends on the version and the channels.
  const xing = 4 + (header.version === 1 ? (mono ? 17 : 32) : mono ? 9 : 17);
  if (startsWith(frame, xing, 'Xing') || startsWith(frame, xing, 'Info')) {
    const flags = frame.length >= xing + 8 ? readUint32(frame, xing + 4) : 0;
    if (flags & 1 && frame.length >= xing + 12) return { frames: readUint32(frame, xing + 8) };
    return { silent: true };
  }
  // VBRI (Fraunhofer) sits 32 bytes after the header whatever the channels: version, delay, quality, bytes, frames.
  if (startsWith(frame, 4 + 32, 'VBRI') && frame.length >= 4 + 32 + 18) return { frames: readUint32(frame, 4 + 32 + 14) };
  return null;
}

const sameStream = (a: MpegFrameHeader, b: MpegFrameHeader) =>
  a.version === b.version && a.layer === b.layer && a.sampleRate === b.sampleRate;

export class Mp3DurationReader {
  private carry: Uint8Array = new Uint8Array(0);
  private skip = 0;
  private tagRead = false;
  private first: MpegFrameHeader | undefined;
  private pendingSamples = 0;
  private samples = 0;
  private sampleRate = 0;
  private outcome: 'reading' | 'done' | 'unreadable' = 'reading';
  private declaredSeconds: number | undefined;

  get finished(): boolean {
    return this.outcome !== 'reading';
  }

  push(chunk: Uint8Array): void {
    if (this.outcome !== 'reading') return;
    if (this.carry.length === 0) return this.keep(chunk, this.walk(chunk, 0));
    // Only the carried bytes and the chunk's start are joined (a copy of every chunk would double
    // what reading a long file allocates); the walk then goes on in the chunk itself.
    const joined = Buffer.concat([this.carry, chunk.subarray(0, JOIN_BYTES)]);
    const stop = this.walk(joined, 0);
    if (this.outcome !== 'reading') return;
    if (chunk.length <= JOIN_BYTES) return this.keep(joined, stop);
    const into = stop - this.carry.length;
    if (into >= 0) return this.keep(chunk, this.walk(chunk, into));
    // The walk stopped in the carried bytes, wanting more than the joined start: join the rest too.
    const rest = Buffer.concat([joined.subarray(stop), chunk.subarray(JOIN_BYTES)]);
    this.keep(rest, this.walk(rest, 0));
  }

  private walk(data: Uint8Array, pos: number): number {
    for (;;) {
      if (this.skip > 0) {
        const step = Math.min(this.skip, data.length - pos);
        pos += step;
        this.skip -= step;
        if (this.skip > 0) break;
        this.samples += this.pendingSamples;
        this.pendingSamples = 0;
        continue;
      }
      if (!this.tagRead) {
        const tag = id3v2TagLength(data.subarray(pos));
        if (tag === undefined) break;
        if (tag !== null && typeof tag === 'object') return this.stopAt(data.length, 'unreadable');
        this.tagRead = true;
        this.skip = tag ?? 0;
        continue;
      }
      // Some taggers pad with zeros beyond the size they declare; decoders skip them.
      if (!this.first) while (pos < data.length && data[pos] === 0) pos += 1;
      if (data.length - pos < (this.first ? LONGEST_TRAILING_TAG : 4)) break;
      const header = parseMpegFrameHeader(data, pos);
      if (!header || (this.first && !sameStream(header, this.first))) {
        const trailingTag = this.first && TRAILING_TAGS.some((tag) => startsWith(data, pos, tag));
        return this.stopAt(data.length, trailingTag ? 'done' : 'unreadable');
      }
      if (!this.first) {
        if (data.length - pos < Math.min(header.frameLength, FIRST_FRAME_PROBE_BYTES)) break;
        this.first = header;
        this.sampleRate = header.sampleRate;
        const declared = declaredFrameCount(data.subarray(pos, pos + Math.min(header.frameLength, FIRST_FRAME_PROBE_BYTES)), header);
        if (declared && 'frames' in declared) {
          this.declaredSeconds = (declared.frames * samplesPerFrame(header)) / header.sampleRate;
          return this.stopAt(data.length, 'done');
        }
        // An Info tag without a count is a frame of silence decoders skip: passed over, not counted.
        this.pendingSamples = declared ? 0 : samplesPerFrame(header);
      } else {
        this.pendingSamples = samplesPerFrame(header);
      }
      this.skip = header.frameLength;
    }
    return pos;
  }

  private keep(data: Uint8Array, pos: number): void {
    if (this.outcome !== 'reading') return;
    // What is kept is shorter than a header or a first frame's probe: a few dozen bytes at most.
    this.carry = Uint8Array.from(data.subarray(pos));
  }

  end(): number | null {
    // What is left is a frame cut short (not counted) or a few bytes after the last frame.
    if (this.outcome === 'reading') this.stop('done');
    if (this.outcome === 'unreadable') return null;
    if (this.declaredSeconds !== undefined) return this.declaredSeconds;
    return this.samples > 0 ? this.samples / this.sampleRate : null;
  }

  private stop(outcome: 'done' | 'unreadable'): void {
    this.outcome = outcome;
    this.carry = new Uint8Array(0);
  }

  private stopAt(end: number, outcome: 'done' | 'unreadable'): number {
    this.stop(outcome);
    return end;
  }
}

/** ISO 8601 (`PT1M23S`), the form schema.org's `duration` takes. */
export function isoDuration(seconds: number): string {
  const total = Math.max(0, Math.round(seconds));
  const hours = Math.floor(total / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const rest = total % 60;
  const parts = `${hours ? `${hours}H` : ''}${minutes ? `${minutes}M` : ''}${rest || total === 0 ? `${rest}S` : ''}`;
  return `PT${parts}`;
}
