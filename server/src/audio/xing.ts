import { parseMpegFrameHeader } from './mp3-sniff';

/**
 * The Xing/Info header frame of a joined MP3: the first frame of the file, carrying no audio, that tells
 * players the frame count (the duration, without walking the file), the byte count and a 100-entry
 * seek table (TOC). Without it a player takes the first frame's bitrate for the whole file and, once
 * the bitrates vary, shows a wrong duration and seeks to the wrong place; with the parts' own headers
 * left in, it would believe the first part's counts.
 *
 * Layout (layer III), after the 4-byte frame header and the side information (zeros here):
 * "Xing" or "Info", flags (1 frames, 2 bytes, 4 TOC), the frame count (audio frames, this one not
 * counted), the byte count (the whole file from this frame on: no ID3 tag precedes it here), then the
 * TOC: entry i is the byte offset, in 256ths of the byte count, of the frame heard at i% of the
 * duration. "Info" is LAME's name for the same header on a constant bitrate file; decoders read both.
 * LAME's extension (encoder delay and padding for gapless playback) is left out: a joined file has
 * one delay per part, which the extension cannot express.
 *
 * Pure: no I/O.
 */

const FLAG_FRAMES = 0x1;
const FLAG_BYTES = 0x2;
const FLAG_TOC = 0x4;
export const TOC_ENTRIES = 100;
/** Tag, flags, frames, bytes, TOC. */
const XING_FIELDS_BYTES = 4 + 4 + 4 + 4 + TOC_ENTRIES;

/** Where the Xing tag starts in a layer III frame: after the header and the side information, whose size depends on the version and the channels. */
export function xingTagOffset(version: 1 | 2 | 2.5, channels: 1 | 2): number {
  if (version === 1) return 4 + (channels === 1 ? 17 : 32);
  return 4 + (channels === 1 ? 9 : 17);
}

export interface XingFrameLayout {
  /** The 4 header bytes of the header frame. */
  header: Uint8Array;
  /** Its length: what to reserve at the start of the file. */
  frameLength: number;
}

/**
 * The header of a frame for the Xing tag, modelled on the first audio frame's header bytes: same
 * version, layer, sample rate, channel mode, copyright, original and emphasis bits; no CRC, no
 * padding, no mode extension. Its bitrate is the audio's when the tag fits in such a frame (so a player
 * that ignores the tag and reckons with the first frame's bitrate is right on a constant bitrate file),
 * else the lowest one whose frame holds it.
 */
export function xingFrameLayout(audioHeader: Uint8Array): XingFrameLayout {
  const audio = parseMpegFrameHeader(audioHeader);
  if (!audio || audio.layer !== 3) throw new Error('a Xing frame is modelled on a layer III frame header');
  const channels = audioHeader[3]! >> 6 === 0b11 ? 1 : 2;
  const needed = xingTagOffset(audio.version, channels) + XING_FIELDS_BYTES;
  const withBitrate = (index: number) =>
    Uint8Array.of(
      0xff,
      audioHeader[1]! | 0x01, // protection bit set: no CRC follows the header
      (index << 4) | (audioHeader[2]! & 0x0c) | (audioHeader[2]! & 0x01), // sample rate and private bits kept, no padding
      audioHeader[3]! & 0xcf // channel mode, copyright, original, emphasis kept; mode extension cleared
    );
  const audioIndex = audioHeader[2]! >> 4;
  for (const index of [audioIndex, ...Array.from({ length: 14 }, (_, i) => i + 1)]) {
    const header = withBitrate(index);
    const frameLength = parseMpegFrameHeader(header)!.frameLength;
    if (frameLength >= needed) return { header, frameLength };
  }
  // Not reached: a frame at the highest bitrate holds it in any stream (480 bytes at least: MPEG 2, 24 kHz, 160 kbps).
  throw new Error(`no layer III frame of this stream holds a Xing tag of ${needed} bytes`);
}

export interface XingTag {
  /** "Info" when every audio frame has the same bitrate, "Xing" otherwise. */
  kind: 'Xing' | 'Info';
  /** Audio frames of the file, the header frame not counted. */
  frames: number;
  /** The whole file, the header frame included. */
  bytes: number;
  toc: Uint8Array;
}

/** The header frame's bytes: the layout's header, zeroed side information, the tag; zeros after it. */
export function buildXingFrame(layout: XingFrameLayout, tag: XingTag): Uint8Array {
  if (tag.toc.length !== TOC_ENTRIES) throw new Error(`a Xing TOC has ${TOC_ENTRIES} entries`);
  const frame = new Uint8Array(layout.frameLength);
  frame.set(layout.header, 0);
  const view = new DataView(frame.buffer, frame.byteOffset, frame.byteLength);
  const version = parseMpegFrameHeader(layout.header)!.version;
  const at = xingTagOffset(version, layout.header[3]! >> 6 === 0b11 ? 1 : 2);
  for (let i = 0; i < 4; i += 1) frame[at + i] = tag.kind.charCodeAt(i);
  view.setUint32(at + 4, FLAG_FRAMES | FLAG_BYTES | FLAG_TOC);
  view.setUint32(at + 8, tag.frames);
  view.setUint32(at + 12, tag.bytes);
  frame.set(tag.toc, at + 16);
  return frame;
}

/**
 * Collects what the TOC needs while the frames are written, without keeping every frame's offset:
 * the offset of every `stride`-th frame, at most `capacity` of them; when they fill up, every other
 * one is dropped and the stride doubles. The frames the TOC asks for, known only once the count is,
 * are then interpolated between the two samples around them. Exact while the frames fit in the
 * samples, and on a constant bitrate (to a padding byte); on a variable one, off by at most the
 * bitrate's swing over 2/capacity of the file: at the default capacity, within one of the TOC's
 * 1/256 steps of the exact entry (tests/unit/mp3-xing.test.ts), in 8 KB whatever the length.
 */
export class XingTocBuilder {
  private readonly offsets: Float64Array;
  private count = 0;
  private stride = 1;
  private frames = 0;

  constructor(private readonly capacity = 1024) {
    if (capacity < 2 || capacity % 2 !== 0) throw new Error('the TOC sample capacity is an even number, at least 2');
    this.offsets = new Float64Array(capacity);
  }

  /** The next audio frame starts at byte `offset` of the file. */
  addFrame(offset: number): void {
    if (this.frames % this.stride === 0) {
      if (this.count === this.capacity) {
        for (let i = 0; i < this.capacity / 2; i += 1) this.offsets[i] = this.offsets[2 * i]!;
        this.count = this.capacity / 2;
        this.stride *= 2;
      }
      // With an even capacity, the frame due when the samples fill up is a multiple of the doubled stride too.
      if (this.frames % this.stride === 0) this.offsets[this.count++] = offset;
    }
    this.frames += 1;
  }

  /** The TOC of a file of `fileBytes` bytes whose audio frames have all been added. */
  toc(fileBytes: number): Uint8Array {
    const toc = new Uint8Array(TOC_ENTRIES);
    if (this.frames === 0) return toc;
    for (let i = 0; i < TOC_ENTRIES; i += 1) {
      // Every frame lasts as long as the others: i% of the duration is i% of the frames.
      const offset = this.offsetOfFrame(Math.floor((i * this.frames) / TOC_ENTRIES), fileBytes);
      toc[i] = Math.min(255, Math.floor((256 * offset) / fileBytes));
    }
    return toc;
  }

  private offsetOfFrame(frame: number, fileBytes: number): number {
    const sample = Math.floor(frame / this.stride);
    const sampledFrame = sample * this.stride;
    const before = this.offsets[sample]!;
    if (sampledFrame === frame) return before;
    // After the last sample, the next point known is the end of the file (where frame `frames` would start).
    const last = sample + 1 >= this.count;
    const nextFrame = last ? this.frames : sampledFrame + this.stride;
    const after = last ? fileBytes : this.offsets[sample + 1]!;
    return before + ((after - before) * (frame - sampledFrame)) / (nextFrame - sampledFrame);
  }
}
