import { declaredFrameCount, samplesPerFrame } from './mp3';
import { id3v2TagLength, parseMpegFrameHeader, type MpegFrameHeader } from './mp3-sniff';

/**
 * The audio frames of one MP3, for joining: what describes only this file (ID3 tags, the
 * Xing/Info/VBRI frame, trailing tags) is dropped. Stricter than Mp3DurationReader: anything a
 * joined file could not play through is refused. Reuses its own buffers, so nothing is allocated per chunk.
 */

/** Decoders set up once, from the first frame, so every frame of a joined file must share these. */
export interface Mp3Stream {
  version: MpegFrameHeader['version'];
  sampleRate: number;
  channels: 1 | 2;
  samplesPerFrame: number;
}

export class Mp3StreamError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'Mp3StreamError';
  }
}

const TRAILING_TAGS = ['TAG', 'APETAGEX', 'LYRICSBEGIN', 'ID3'];
const LONGEST_TRAILING_TAG = Math.max(...TRAILING_TAGS.map((tag) => tag.length));
/** A padded layer III frame at 320 kbps and 32 kHz; other layers are refused before their frames are awaited. */
const LONGEST_UNIT = 1441;
const HEAD_BYTES = 2048;

const startsWith = (bytes: Uint8Array, offset: number, text: string) =>
  offset + text.length <= bytes.length && [...text].every((char, i) => bytes[offset + i] === char.charCodeAt(0));

/** Mono is channel mode 11; stereo, joint stereo and dual channel are two. */
export const channelsOf = (headerByte3: number): 1 | 2 => (headerByte3 >> 6 === 0b11 ? 1 : 2);

export function describeStream(stream: Mp3Stream): string {
  return `MPEG ${stream.version} at ${stream.sampleRate} Hz, ${stream.channels === 1 ? 'mono' : 'stereo'}`;
}

const sameStream = (a: Mp3Stream, b: Mp3Stream) => a.version === b.version && a.sampleRate === b.sampleRate && a.channels === b.channels;

export interface Mp3FrameWalkerOptions {
  expected?: Mp3Stream;
  onFrame?: (frame: Uint8Array, header: MpegFrameHeader) => void;
}

export class Mp3FrameWalker {
  stream: Mp3Stream | undefined;
  frames = 0;
  private phase: 'leading-tags' | 'before-audio' | 'frames' | 'after-audio' = 'leading-tags';
  private skip = 0;
  private readonly kept = new Uint8Array(LONGEST_UNIT);
  private keptLength = 0;
  private readonly head = new Uint8Array(LONGEST_UNIT + HEAD_BYTES);
  /** Where the chunk starts in the file, for error messages. */
  private seen = 0;
  private firstFrameChecked = false;

  constructor(private readonly options: Mp3FrameWalkerOptions = {}) {}

  /** The frames answered may be views of the chunk or of the walker's buffers: write them before the next push. */
  push(chunk: Uint8Array): Uint8Array[] {
    const frames: Uint8Array[] = [];
    const chunkStart = this.seen;
    this.seen += chunk.length;
    if (this.afterAudio()) return frames;
    let from = 0;
    if (this.keptLength > 0) {
      // Only the unit that straddles the two chunks is copied, with enough of the new chunk to complete it.
      const keptLength = this.keptLength;
      const taken = Math.min(chunk.length, HEAD_BYTES);
      this.head.set(this.kept.subarray(0, keptLength), 0);
      this.head.set(chunk.subarray(0, taken), keptLength);
      const head = this.head.subarray(0, keptLength + taken);
      const used = this.scan(head, chunkStart - keptLength, frames, false);
      if (this.afterAudio()) return frames;
      if (chunk.length <= HEAD_BYTES) {
        this.keep(head.subarray(used));
        return frames;
      }
      if (used < keptLength)
        throw new Error(`a unit of the MP3 at byte ${chunkStart - keptLength + used} is longer than ${LONGEST_UNIT} bytes`);
      from = used - keptLength;
    }
    const used = this.scan(chunk.subarray(from), chunkStart + from, frames, false);
    if (!this.afterAudio()) this.keep(chunk.subarray(from + used));
    return frames;
  }

  end(): Uint8Array[] {
    const frames: Uint8Array[] = [];
    if (!this.afterAudio()) this.scan(this.kept.subarray(0, this.keptLength), this.seen - this.keptLength, frames, true);
    this.keptLength = 0;
    if (this.frames === 0) throw new Mp3StreamError('it holds no MPEG audio frame');
    return frames;
  }

  private keep(rest: Uint8Array): void {
    // A scan stops only before a unit it cannot complete, always shorter than the longest frame.
    if (rest.length > LONGEST_UNIT)
      throw new Error(`a unit of the MP3 at byte ${this.seen - rest.length} is longer than ${LONGEST_UNIT} bytes`);
    this.kept.set(rest, 0);
    this.keptLength = rest.length;
  }

  private afterAudio(): boolean {
    return this.phase === 'after-audio';
  }

  private scan(data: Uint8Array, start: number, out: Uint8Array[], final: boolean): number {
    let pos = 0;
    let runStart = -1;
    const endRun = () => {
      if (runStart >= 0 && pos > runStart) out.push(data.subarray(runStart, pos));
      runStart = -1;
    };
    for (;;) {
      if (this.skip > 0) {
        const step = Math.min(this.skip, data.length - pos);
        pos += step;
        this.skip -= step;
        if (this.skip > 0) break;
        continue;
      }
      if (this.phase === 'leading-tags') {
        const tag = id3v2TagLength(data.subarray(pos));
        if (tag === undefined && !final) break;
        if (tag !== null && typeof tag === 'object') throw new Mp3StreamError(tag.invalid);
        // Another ID3v2 tag may follow the first (some taggers add one rather than rewrite).
        if (typeof tag === 'number') this.skip = tag;
        else this.phase = 'before-audio';
        continue;
      }
      if (this.phase === 'before-audio') {
        // Some taggers pad with zeros beyond the size they declare; decoders skip them.
        while (pos < data.length && data[pos] === 0) pos += 1;
        if (data.length - pos < 4) break;
        if (!parseMpegFrameHeader(data, pos))
          throw new Mp3StreamError(`no MPEG audio frame starts where its audio should (byte ${start + pos})`);
        this.phase = 'frames';
        continue;
      }
      // Frames, until the data runs out or something else starts.
      if (data.length - pos < 4) break;
      const header = parseMpegFrameHeader(data, pos);
      if (!header) {
        if (data.length - pos < LONGEST_TRAILING_TAG && !final) break;
        if (TRAILING_TAGS.some((tag) => startsWith(data, pos, tag))) {
          endRun();
          this.phase = 'after-audio';
          return pos;
        }
        throw new Mp3StreamError(`bytes at ${start + pos} are neither an MPEG audio frame nor a known tag: the file is damaged`);
      }
      this.checkStream(header, data[pos + 3]!, start + pos);
      // A last frame cut short stays kept; at the end it is dropped.
      if (data.length - pos < header.frameLength) break;
      const frame = data.subarray(pos, pos + header.frameLength);
      if (!this.firstFrameChecked) {
        this.firstFrameChecked = true;
        if (declaredFrameCount(frame, header) !== null) {
          endRun();
          pos += header.frameLength;
          continue;
        }
      }
      if (runStart < 0) runStart = pos;
      this.frames += 1;
      this.options.onFrame?.(frame, header);
      pos += header.frameLength;
    }
    endRun();
    return pos;
  }

  private checkStream(header: MpegFrameHeader, headerByte3: number, at: number): void {
    const frameStream: Mp3Stream = {
      version: header.version,
      sampleRate: header.sampleRate,
      channels: channelsOf(headerByte3),
      samplesPerFrame: samplesPerFrame(header),
    };
    if (!this.stream) {
      if (header.layer !== 3) throw new Mp3StreamError(`it is MPEG layer ${header.layer} audio, not MP3 (layer III)`);
      const expected = this.options.expected;
      if (expected && !sameStream(frameStream, expected)) {
        throw new Mp3StreamError(`it is ${describeStream(frameStream)} where ${describeStream(expected)} was expected`);
      }
      this.stream = frameStream;
    } else if (header.layer !== 3 || !sameStream(frameStream, this.stream)) {
      throw new Mp3StreamError(`its frame at byte ${at} is ${describeStream(frameStream)}, after frames of ${describeStream(this.stream)}`);
    }
  }
}
