import { Mp3DurationReader, isoDuration } from '../../../server/src/audio/mp3';
import { parseMpegFrameHeader } from '../../../server/src/audio/mp3-sniff';
import { HTML_PAGE, emulatorMp3, id3v2Tag, mp3DurationSeconds } from './mp3-fixtures';

/** Real frames from the emulator's MP3 encoder: MPEG 2 layer III, mono, 22.05 kHz, 576 samples a frame, no VBR header. */
const RATE = 22050;
const FRAME_SECONDS = 576 / RATE;
const THREE_SECONDS = emulatorMp3(3);

/** The MP3's frames, walked header to header here (an independent count for the expectations). */
function frameOffsets(mp3: Buffer): number[] {
  const offsets: number[] = [];
  for (let at = 0; parseMpegFrameHeader(mp3, at); at += parseMpegFrameHeader(mp3, at)!.frameLength) offsets.push(at);
  return offsets;
}

/** Feeds the reader in pieces of `size` bytes. */
function readInPieces(bytes: Buffer, size: number): number | null {
  const reader = new Mp3DurationReader();
  for (let at = 0; at < bytes.length; at += size) reader.push(bytes.subarray(at, at + size));
  return reader.end();
}

/** A first frame of the emulator's stream (same header) carrying a VBR tag instead of audio. */
function vbrFrame(kind: 'Xing' | 'Info' | 'VBRI', frames: number | null): Buffer {
  const header = THREE_SECONDS.subarray(0, 4);
  const frame = Buffer.alloc(parseMpegFrameHeader(header)!.frameLength);
  header.copy(frame, 0);
  if (kind === 'VBRI') {
    frame.write('VBRI', 36, 'latin1');
    frame.writeUInt32BE(frames ?? 0, 36 + 14);
  } else {
    // MPEG 2 mono: 9 bytes of side information after the header.
    frame.write(kind, 13, 'latin1');
    frame.writeUInt32BE(frames === null ? 0 : 1, 17);
    if (frames !== null) frame.writeUInt32BE(frames, 21);
  }
  return frame;
}

describe('MP3 duration from the frames', () => {
  it('sums the frames of a real MP3: at least the encoded samples, at most the encoder delay and its padding frames more', () => {
    const seconds = mp3DurationSeconds(THREE_SECONDS)!;
    expect(seconds).toBeCloseTo(frameOffsets(THREE_SECONDS).length * FRAME_SECONDS, 9);
    expect(seconds).toBeGreaterThanOrEqual(3);
    // LAME delays by 1,105 samples and pads the last frame.
    expect(seconds).toBeLessThan(3 + (1105 + 2 * 576) / RATE);
  });

  it('gives the same answer in any chunking, one byte at a time included', () => {
    const whole = mp3DurationSeconds(THREE_SECONDS);
    for (const size of [1, 3, 57, 1000, 4096]) expect(readInPieces(THREE_SECONDS, size)).toBe(whole);
  });

  it('gives the same answer in chunks longer than the start it joins to the bytes carried over, as files and sockets give them', () => {
    const tagged = Buffer.concat([id3v2Tag({ bodyBytes: 5000 }), Buffer.alloc(300), THREE_SECONDS, THREE_SECONDS.subarray(0, 100)]);
    const whole = mp3DurationSeconds(tagged);
    expect(whole).toBeCloseTo(mp3DurationSeconds(THREE_SECONDS)!, 9);
    for (const size of [4097, 5003, 6000, 8191, 16_384]) expect(readInPieces(tagged, size)).toBe(whole);
  });

  it('skips an ID3v2 tag (v2.3, and v2.4 with its footer), zero padding after it, and an ID3v1 or APE tag at the end', () => {
    const whole = mp3DurationSeconds(THREE_SECONDS);
    const id3v1 = Buffer.concat([Buffer.from('TAG', 'latin1'), Buffer.alloc(125, 0x20)]);
    const ape = Buffer.concat([Buffer.from('APETAGEX', 'latin1'), Buffer.alloc(24)]);
    expect(mp3DurationSeconds(Buffer.concat([id3v2Tag({ bodyBytes: 5000 }), THREE_SECONDS]))).toBe(whole);
    expect(readInPieces(Buffer.concat([id3v2Tag({ version: 4, footer: true }), Buffer.alloc(300), THREE_SECONDS, id3v1]), 100)).toBe(whole);
    expect(mp3DurationSeconds(Buffer.concat([THREE_SECONDS, ape]))).toBe(whole);
  });

  it("takes a Xing or VBRI header's frame count when the first frame has one", () => {
    // The count is believed over the frames that follow (it is what VBR players use): 1,000 declared, ~118 present.
    expect(mp3DurationSeconds(Buffer.concat([vbrFrame('Xing', 1000), THREE_SECONDS]))).toBeCloseTo(1000 * FRAME_SECONDS, 9);
    expect(readInPieces(Buffer.concat([vbrFrame('Info', 250), THREE_SECONDS]), 7)).toBeCloseTo(250 * FRAME_SECONDS, 9);
    expect(mp3DurationSeconds(Buffer.concat([vbrFrame('VBRI', 400), THREE_SECONDS]))).toBeCloseTo(400 * FRAME_SECONDS, 9);
  });

  it('skips an Info frame without a count (silence to decoders) and counts the frames after it', () => {
    expect(mp3DurationSeconds(Buffer.concat([vbrFrame('Info', null), THREE_SECONDS]))).toBe(mp3DurationSeconds(THREE_SECONDS));
  });

  it('counts only whole frames of a file cut short', () => {
    const offsets = frameOffsets(THREE_SECONDS);
    const cut = THREE_SECONDS.subarray(0, offsets[50]! + 40);
    expect(mp3DurationSeconds(cut)).toBeCloseTo(50 * FRAME_SECONDS, 9);
  });

  it.each([
    ['nothing', Buffer.alloc(0)],
    ['an HTML page', HTML_PAGE],
    ['half a frame header', THREE_SECONDS.subarray(0, 2)],
    ['the start of the first frame only', THREE_SECONDS.subarray(0, 100)],
    ['an ID3 tag longer than the file', Buffer.concat([id3v2Tag({ bodyBytes: 100_000 }), THREE_SECONDS]).subarray(0, 20_000)],
    ['zeros', Buffer.alloc(5000)],
    ['a malformed ID3 header', Buffer.concat([Buffer.from('ID3', 'latin1'), Buffer.from([9, 0, 0, 0x80, 0, 0, 0]), THREE_SECONDS])],
  ])('answers null, without throwing, for %s', (_what, bytes) => {
    expect(mp3DurationSeconds(bytes)).toBeNull();
    expect(readInPieces(bytes, 13)).toBeNull();
  });

  it('answers null for a file damaged in the middle (a guess from the part before would be wrong)', () => {
    const damaged = Buffer.from(THREE_SECONDS);
    damaged.fill(0x41, frameOffsets(THREE_SECONDS)[60]!, frameOffsets(THREE_SECONDS)[60]! + 4);
    expect(mp3DurationSeconds(damaged)).toBeNull();
  });
});

describe('ISO 8601 durations', () => {
  it.each([
    [83, 'PT1M23S'],
    [0, 'PT0S'],
    [59.6, 'PT1M'],
    [3600, 'PT1H'],
    [3661.4, 'PT1H1M1S'],
    [7205, 'PT2H5S'],
    [-3, 'PT0S'],
  ])('%s s is %s', (seconds, iso) => {
    expect(isoDuration(seconds)).toBe(iso);
  });
});
