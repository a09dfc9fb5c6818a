import { id3v2TagLength, parseMpegFrameHeader, type MpegFrameHeader } from './mp3-sniff';

/**
 * How long an MP3 plays, read from the file itself: an ID3v2 tag is skipped, then a Xing/Info or
 * VBRI header in the first frame gives the frame count when the encoder wrote one (VBR files); else
 * the MPEG audio frames are walked header to header and their samples summed.
 *
 * Pure: no I/O. `Mp3DurationReader` is fed the file chunk by chunk and keeps at most a first
 * frame's opening bytes, so a long narration is never held in memory.
 *
 * Honest about what it cannot read: null (never an exception) when no frame starts where the audio
 * should, or when the frames stop before the end of the file at something that is neither the end
 * nor a known trailing tag (the file is damaged: the duration of the part before would be a guess).
 * A last frame cut short is not counted.
 */

/** Enough of the first frame to find a Xing/Info tag (at most 4 + 32 bytes in) or a VBRI one (4 + 32), with their counts. */
const FIRST_FRAME_PROBE_BYTES = 4 + 32 + 18;
/** Tags found after the last frame: ID3v1, APEv2, Lyrics3. */
const TRAILING_TAGS = ['TAG', 'APETAGEX', 'LYRICSBEGIN'];
const LONGEST_TRAILING_TAG = Math.max(...TRAILING_TAGS.map((tag) => tag.length));
/** How much of a chunk's start is joined to bytes carried from the one before: more than any step reads at once. */
const JOIN_BYTES = 4096;

/** Samples one frame decodes to. */
export function samplesPerFrame(header: Pick<MpegFrameHeader, 'layer' | 'version'>): number {
  if (header.layer === 1) return 384;
  // Layer III of MPEG 2 and 2.5 carries half the samples of MPEG 1.
  return header.layer === 3 && header.version !== 1 ? 576 : 1152;
}

const readUint32 = (bytes: Uint8Array, offset: number) =>
  ((bytes[offset]! << 24) | (bytes[offset + 1]! << 16) | (bytes[offset + 2]! << 8) | bytes[offset + 3]!) >>> 0;

const startsWith = (bytes: Uint8Array, offset: number, text: string) =>
  offset + text.length <= bytes.length && [...text].every((char, i) => bytes[offset + i] === char.charCodeAt(0));

/**
 * The frame count a VBR header of the first frame declares (`frame` holds the frame's opening bytes),
 * `{ silent: true }` for a Xing/Info tag without one (the tag frame is then skipped, not counted),
 * or null when there is no such header.
 */
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
  /** Bytes still to pass over: the ID3 tag, or the rest of the current frame. */
  private skip = 0;
  private tagRead = false;
  /** The first frame's header: every later frame must be of the same stream. */
  private first: MpegFrameHeader | undefined;
  /** Samples of the frame being passed over, counted once the whole frame has been seen. */
  private pendingSamples = 0;
  private samples = 0;
  private sampleRate = 0;
  private outcome: 'reading' | 'done' | 'unreadable' = 'reading';
  /** The walk ended at a trailing tag (or a VBR header gave the count): later bytes do not matter. */
  private declaredSeconds: number | undefined;

  /** True once more bytes cannot change the answer (a VBR header gave the count, a trailing tag, or damage). */
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

  /** Walks frames from `pos` while `data` holds what the next step reads; returns where it stopped. */
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

  /** The file ended: its duration in seconds, or null when it could not be read as an MP3. */
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

  /** Stops the walk: `end` is where it returns (nothing is kept once stopped). */
  private stopAt(end: number, outcome: 'done' | 'unreadable'): number {
    this.stop(outcome);
    return end;
  }
}

/** The duration of a whole MP3 held in memory (tests, small files); null when it cannot be read. */
export function mp3DurationSeconds(bytes: Uint8Array): number | null {
  const reader = new Mp3DurationReader();
  reader.push(bytes);
  return reader.end();
}

/** Seconds as ISO 8601 (`PT1M23S`), the form schema.org's `duration` takes; whole seconds, rounded. */
export function isoDuration(seconds: number): string {
  const total = Math.max(0, Math.round(seconds));
  const hours = Math.floor(total / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const rest = total % 60;
  const parts = `${hours ? `${hours}H` : ''}${minutes ? `${minutes}M` : ''}${rest || total === 0 ? `${rest}S` : ''}`;
  return `PT${parts}`;
}
