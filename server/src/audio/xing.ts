import { parseMpegFrameHeader } from './mp3-sniff';

/**
 * The Xing/Info header frame of a joined MP3: frame count, byte count and seek table. Without it a
 * player takes the first frame's bitrate for the whole file and misjudges duration and seeks.
 * LAME's gapless extension is left out: a joined file has one encoder delay per part.
 */

const FLAG_FRAMES = 0x1;
const FLAG_BYTES = 0x2;
const FLAG_TOC = 0x4;
export const TOC_ENTRIES = 100;
const XING_FIELDS_BYTES = 4 + 4 + 4 + 4 + TOC_ENTRIES;

/** After the header and the side information, whose size depends on the version and the channels. */
export function xingTagOffset(version: 1 | 2 | 2.5, channels: 1 | 2): number {
  if (version === 1) return 4 + (channels === 1 ? 17 : 32);
  return 4 + (channels === 1 ? 9 : 17);
}

export interface XingFrameLayout {
  header: Uint8Array;
  frameLength: number;
}

/**
 * Modelled on the first audio frame's header; its bitrate is the audio's when the tag fits, so a
 * player that ignores the tag is still right on a constant bitrate file.
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
  throw new Error(`no layer III frame of this stream holds a Xing tag of ${needed} bytes`);
}

export interface XingTag {
  kind: 'Xing' | 'Info';
  frames: number;
  bytes: number;
  toc: Uint8Array;
}

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
 * Samples every `stride`-th frame offset (the stride doubles when full) and interpolates: exact on
 * a constant bitrate, within one 1/256 TOC step on a variable one, in 8 KB whatever the length.
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
