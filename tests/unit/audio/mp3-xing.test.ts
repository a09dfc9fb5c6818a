import { declaredFrameCount } from '../../../server/src/audio/mp3';
import { parseMpegFrameHeader } from '../../../server/src/audio/mp3-sniff';
import { buildXingFrame, TOC_ENTRIES, xingFrameLayout, XingTocBuilder } from '../../../server/src/audio/xing';
import { exactToc, readXing, type WalkedFrame } from './ffmpeg-mp3';

/** The Xing/Info header frame of a joined file: its layout, its fields, and a TOC built from sampled frame offsets. */

/** A layer III frame header: version bits (11 MPEG 1, 10 MPEG 2, 00 MPEG 2.5), bitrate index, sample rate index, channel mode. */
function audioHeader({ version = 0b11, bitrateIndex = 9, rateIndex = 0, mode = 0b01, crc = false } = {}): Uint8Array {
  return Uint8Array.of(
    0xff,
    0xe0 | (version << 3) | (0b01 << 1) | (crc ? 0 : 1),
    (bitrateIndex << 4) | (rateIndex << 2) | 0b10,
    (mode << 6) | 0b100100
  );
}

/** Frames of these lengths, one after another from `start`. */
function framesOf(lengths: readonly number[], start: number): WalkedFrame[] {
  let offset = start;
  return lengths.map((length) => {
    const frame = { offset, length, bitrateKbps: 0 };
    offset += length;
    return frame;
  });
}

/** A deterministic pseudo-random sequence (a linear congruential generator), so that a failure can be replayed. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => (state = (Math.imul(state, 1664525) + 1013904223) >>> 0) / 2 ** 32;
}

describe('the Xing frame layout', () => {
  it("takes the audio's bitrate when the tag fits in such a frame, and the audio's stream and channel mode, without CRC, padding or mode extension", () => {
    const audio = audioHeader({ crc: true, mode: 0b01 });
    const layout = xingFrameLayout(audio);
    const header = parseMpegFrameHeader(layout.header)!;
    expect(header).toEqual({ version: 1, layer: 3, bitrateKbps: 128, sampleRate: 44100, padding: false, frameLength: 417 });
    expect(layout.frameLength).toBe(417);
    expect(layout.header[1]! & 1).toBe(1);
    expect(layout.header[3]! >> 6).toBe(0b01);
    expect(layout.header[3]! & 0x30).toBe(0);
    // Copyright, original and emphasis bits kept.
    expect(layout.header[3]! & 0x0f).toBe(audio[3]! & 0x0f);
  });

  it('takes the lowest bitrate whose frame holds the tag when the audio is too thin for it', () => {
    // MPEG 2, 24 kHz, stereo, 32 kbps: a 96-byte frame; the tag needs 4 + 17 + 116 = 137 bytes.
    const layout = xingFrameLayout(audioHeader({ version: 0b10, bitrateIndex: 4, rateIndex: 1, mode: 0b00 }));
    const header = parseMpegFrameHeader(layout.header)!;
    expect(header.bitrateKbps).toBe(48);
    expect(layout.frameLength).toBe(144);
    // The bitrate below, 40 kbps, gives 120 bytes (the fixture's header asks for one byte of padding).
    const below = parseMpegFrameHeader(audioHeader({ version: 0b10, bitrateIndex: 5, rateIndex: 1 }))!;
    expect([below.bitrateKbps, below.frameLength - 1]).toEqual([40, 120]);
  });

  it.each([
    ['MPEG 1 stereo', 0b11, 0b01],
    ['MPEG 1 mono', 0b11, 0b11],
    ['MPEG 2 stereo', 0b10, 0b00],
    ['MPEG 2.5 mono', 0b00, 0b11],
  ])('writes fields that the duration reader and a field-by-field reading find (%s)', (_name, version, mode) => {
    const layout = xingFrameLayout(audioHeader({ version, mode, bitrateIndex: 5 }));
    const toc = Uint8Array.from({ length: TOC_ENTRIES }, (_, i) => Math.floor(i * 2.5));
    const frame = buildXingFrame(layout, { kind: 'Xing', frames: 123456, bytes: 7654321, toc });
    expect(frame.length).toBe(layout.frameLength);
    expect(declaredFrameCount(frame, parseMpegFrameHeader(frame)!)).toEqual({ frames: 123456 });
    expect(readXing(frame, 0)).toEqual({ kind: 'Xing', flags: 0b111, frames: 123456, bytes: 7654321, toc: [...toc] });
  });
});

describe('the TOC built from sampled frame offsets', () => {
  function built(lengths: readonly number[], start: number, capacity: number) {
    const frames = framesOf(lengths, start);
    const builder = new XingTocBuilder(capacity);
    for (const frame of frames) builder.addFrame(frame.offset);
    const fileBytes = start + lengths.reduce((sum, length) => sum + length, 0);
    return { toc: [...builder.toc(fileBytes)], exact: exactToc(frames, fileBytes) };
  }

  it('is exact while every offset fits in the samples', () => {
    const next = random(1);
    const lengths = Array.from({ length: 1000 }, () => 104 + Math.floor(next() * 1300));
    const { toc, exact } = built(lengths, 417, 1024);
    expect(toc).toEqual(exact);
  });

  it('is exact on a constant bitrate however often the samples were thinned (padding bytes included)', () => {
    // 128 kbps at 44.1 kHz: 417 bytes, 418 with padding, as an encoder spreads them.
    const lengths = Array.from({ length: 137_000 }, (_, i) =>
      Math.floor(((i + 1) * 441) / 1000) > Math.floor((i * 441) / 1000) ? 418 : 417
    );
    const { toc, exact } = built(lengths, 417, 64);
    expect(toc).toEqual(exact);
  });

  it('stays within one 1/256 step of the exact TOC on a swinging variable bitrate, and never decreases', () => {
    const next = random(7);
    // Runs of low and high bitrates (speech and pauses), 1 to 200 frames long: the worst case for interpolation.
    const lengths: number[] = [];
    while (lengths.length < 140_000) {
      const length = next() < 0.5 ? 104 + Math.floor(next() * 50) : 900 + Math.floor(next() * 540);
      for (let run = 1 + Math.floor(next() * 200); run > 0; run -= 1) lengths.push(length);
    }
    const { toc, exact } = built(lengths, 417, 1024);
    toc.forEach((entry, i) => expect({ i, off: Math.abs(entry - exact[i]!) <= 1 }).toEqual({ i, off: true }));
    expect(toc.every((entry, i) => i === 0 || entry >= toc[i - 1]!)).toBe(true);
    // The sampling matters: with 8 samples, the same frames give a TOC further off.
    const coarse = built(lengths, 417, 8);
    expect(Math.max(...coarse.toc.map((entry, i) => Math.abs(entry - exact[i]!)))).toBeGreaterThan(1);
  });

  it('refuses an odd or too small capacity', () => {
    expect(() => new XingTocBuilder(7)).toThrow('even');
    expect(() => new XingTocBuilder(0)).toThrow('even');
  });
});
