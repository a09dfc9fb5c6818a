/**
 * Recognises an MP3 by its first bytes. `ID3` or a frame sync alone is not enough (an error page
 * behind `ID3` once passed): the tag is skipped and two chained frame headers must agree.
 */

export interface MpegFrameHeader {
  version: 1 | 2 | 2.5;
  layer: 1 | 2 | 3;
  bitrateKbps: number;
  sampleRate: number;
  padding: boolean;
  frameLength: number;
}

export type Mp3Verdict =
  | { kind: 'mp3' }
  | { kind: 'not-mp3'; reason: string }
  | { kind: 'too-large'; tagBytes: number }
  | { kind: 'need-more' };

const ID3_HEADER_BYTES = 10;
/** Room for padding and two frames (the longest, layer II at 384 kbps and 32 kHz, is 1,729 bytes). */
export const MP3_SNIFF_WINDOW_BYTES = 8 * 1024;

// Bitrates in kbps by [version 1 or not][layer - 1][index]; index 0 (free format) and 15 are refused.
const BITRATES: Record<'v1' | 'v2', [number[], number[], number[]]> = {
  v1: [
    [0, 32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448],
    [0, 32, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320, 384],
    [0, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320],
  ],
  v2: [
    [0, 32, 48, 56, 64, 80, 96, 112, 128, 144, 160, 176, 192, 224, 256],
    [0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160],
    [0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160],
  ],
};
const SAMPLE_RATES: Record<1 | 2 | 2.5, [number, number, number]> = {
  1: [44100, 48000, 32000],
  2: [22050, 24000, 16000],
  2.5: [11025, 12000, 8000],
};

export function parseMpegFrameHeader(bytes: Uint8Array, offset = 0): MpegFrameHeader | undefined {
  if (offset < 0 || offset + 4 > bytes.length) return undefined;
  const b1 = bytes[offset + 1]!;
  const b2 = bytes[offset + 2]!;
  const b3 = bytes[offset + 3]!;
  if (bytes[offset] !== 0xff || (b1 & 0xe0) !== 0xe0) return undefined;
  const versionBits = (b1 >> 3) & 0b11;
  const layerBits = (b1 >> 1) & 0b11;
  const bitrateIndex = b2 >> 4;
  const rateIndex = (b2 >> 2) & 0b11;
  // Reserved values: version 01, layer 00, bitrate 1111, sample rate 11, emphasis 10. Free format (bitrate 0)
  // has no length in its header, so the next frame cannot be found: refused too.
  if (versionBits === 0b01 || layerBits === 0b00 || bitrateIndex === 0 || bitrateIndex === 15 || rateIndex === 3 || (b3 & 0b11) === 0b10) {
    return undefined;
  }
  const version = versionBits === 0b11 ? 1 : versionBits === 0b10 ? 2 : 2.5;
  const layer = (4 - layerBits) as 1 | 2 | 3;
  const bitrateKbps = BITRATES[version === 1 ? 'v1' : 'v2'][layer - 1]![bitrateIndex]!;
  const sampleRate = SAMPLE_RATES[version][rateIndex]!;
  const padding = ((b2 >> 1) & 1) === 1;
  const bitrate = bitrateKbps * 1000;
  let frameLength: number;
  if (layer === 1) frameLength = (Math.floor((12 * bitrate) / sampleRate) + (padding ? 1 : 0)) * 4;
  else {
    // Layer III of MPEG 2 and 2.5 carries 576 samples per frame, half of the others.
    const samplesPerFrame = layer === 3 && version !== 1 ? 576 : 1152;
    frameLength = Math.floor(((samplesPerFrame / 8) * bitrate) / sampleRate) + (padding ? 1 : 0);
  }
  return { version, layer, bitrateKbps, sampleRate, padding, frameLength };
}

/** The ID3v2 tag's whole length; null when there is none, undefined when under 10 bytes are there to tell. */
export function id3v2TagLength(bytes: Uint8Array): number | null | undefined | { invalid: string } {
  const known = Math.min(bytes.length, 3);
  if ([0x49, 0x44, 0x33].slice(0, known).some((byte, i) => bytes[i] !== byte)) return null;
  if (bytes.length < ID3_HEADER_BYTES) return undefined;
  const major = bytes[3]!;
  const revision = bytes[4]!;
  const flags = bytes[5]!;
  const size = [bytes[6]!, bytes[7]!, bytes[8]!, bytes[9]!];
  if (major < 2 || major > 4 || revision === 0xff) return { invalid: 'its ID3 tag has an unknown version' };
  // The size is "syncsafe": 7 bits per byte, the high bit always clear.
  if (size.some((byte) => byte >= 0x80)) return { invalid: 'its ID3 tag has a malformed size' };
  const body = (size[0]! << 21) | (size[1]! << 14) | (size[2]! << 7) | size[3]!;
  // ID3v2.4 may end the tag with a 10-byte footer, flagged in the header and not counted in the size.
  const footer = major === 4 && (flags & 0x10) !== 0 ? ID3_HEADER_BYTES : 0;
  return ID3_HEADER_BYTES + body + footer;
}

export function checkMpegFrames(audio: Uint8Array, complete: boolean, windowBytes = MP3_SNIFF_WINDOW_BYTES): Mp3Verdict {
  const full = complete || audio.length >= windowBytes;
  // Some taggers pad with zeros beyond the size they declare; decoders skip them, so do we.
  let start = 0;
  while (start < audio.length && audio[start] === 0) start += 1;
  if (audio.length < start + 4) {
    if (!full) return { kind: 'need-more' };
    return { kind: 'not-mp3', reason: start === 0 && audio.length === 0 ? 'it has no audio' : 'it has no MPEG audio frame' };
  }
  const first = parseMpegFrameHeader(audio, start);
  if (!first) return { kind: 'not-mp3', reason: 'no MPEG audio frame starts where the audio should' };
  const next = start + first.frameLength;
  if (audio.length < next + 4) {
    if (!full) return { kind: 'need-more' };
    // The file ends with its first frame (a very short sound): whole, it is an MP3; cut short, it is not.
    if (complete && audio.length >= next) return { kind: 'mp3' };
    return { kind: 'not-mp3', reason: 'its first MPEG audio frame is not followed by another' };
  }
  // An ID3v1 tag ("TAG") may follow the last frame.
  if (audio[next] === 0x54 && audio[next + 1] === 0x41 && audio[next + 2] === 0x47) return { kind: 'mp3' };
  const second = parseMpegFrameHeader(audio, next);
  if (!second || second.version !== first.version || second.layer !== first.layer || second.sampleRate !== first.sampleRate) {
    return { kind: 'not-mp3', reason: 'its first MPEG audio frame is not followed by another' };
  }
  return { kind: 'mp3' };
}

/** Keeps at most the ID3 header and `MP3_SNIFF_WINDOW_BYTES` of audio, however large the tag. */
export class Mp3Sniffer {
  private seen = 0;
  private windowStart = 0;
  private window: Buffer = Buffer.alloc(0);
  private audioStart: number | undefined;
  private verdict: Mp3Verdict = { kind: 'need-more' };

  /** @param maxBytes a tag claiming more is refused at once, without reading it. */
  constructor(private readonly maxBytes: number) {}

  push(chunk: Buffer): Mp3Verdict {
    const chunkStart = this.seen;
    this.seen += chunk.length;
    if (this.verdict.kind !== 'need-more') return this.verdict;
    this.take(chunk, chunkStart);
    if (this.audioStart === undefined) {
      const tag = this.readTag(false);
      if (tag) return (this.verdict = tag);
      if (this.audioStart === undefined) return this.verdict;
      // The rest of this chunk may hold the start of the audio.
      this.take(chunk, chunkStart);
    }
    return (this.verdict = checkMpegFrames(this.window, false));
  }

  end(): Exclude<Mp3Verdict, { kind: 'need-more' }> {
    if (this.verdict.kind === 'need-more') {
      const tag = this.audioStart === undefined ? this.readTag(true) : undefined;
      if (tag) this.verdict = tag;
      else if (this.audioStart !== undefined && this.audioStart > this.seen) {
        this.verdict = { kind: 'not-mp3', reason: 'it ends inside its ID3 tag' };
      } else this.verdict = checkMpegFrames(this.window, true);
    }
    return this.verdict as Exclude<Mp3Verdict, { kind: 'need-more' }>;
  }

  private take(chunk: Buffer, chunkStart: number): void {
    const limit = this.windowStart + (this.audioStart === undefined ? ID3_HEADER_BYTES : MP3_SNIFF_WINDOW_BYTES);
    const from = Math.max(chunkStart, this.windowStart + this.window.length);
    const to = Math.min(chunkStart + chunk.length, limit);
    if (to > from) this.window = Buffer.concat([this.window, chunk.subarray(from - chunkStart, to - chunkStart)]);
  }

  private readTag(complete: boolean): Mp3Verdict | undefined {
    const length = id3v2TagLength(this.window);
    if (length === undefined) {
      return complete ? { kind: 'not-mp3', reason: this.window.length === 0 ? 'it is empty' : 'it is too short' } : undefined;
    }
    if (length !== null && typeof length === 'object') return { kind: 'not-mp3', reason: length.invalid };
    if (length === null) {
      this.audioStart = 0;
      return undefined;
    }
    if (length > this.maxBytes) return { kind: 'too-large', tagBytes: length };
    this.audioStart = length;
    this.windowStart = length;
    this.window = Buffer.alloc(0);
    return undefined;
  }
}
