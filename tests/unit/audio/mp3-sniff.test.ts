import { randomBytes } from 'crypto';
import { Mp3Sniffer, checkMpegFrames, id3v2TagLength, parseMpegFrameHeader } from '../../../server/src/audio/mp3-sniff';
import { HTML_PAGE, emulatorMp3, id3v2Tag, looksLikeMp3 } from './mp3-fixtures';

const AUDIO = emulatorMp3(1);

/** Feeds the sniffer in pieces of `size` bytes and returns its final verdict. */
function sniff(bytes: Buffer, size = bytes.length, maxBytes = 10 * 1024 * 1024) {
  const sniffer = new Mp3Sniffer(maxBytes);
  for (let at = 0; at < bytes.length; at += size) {
    const verdict = sniffer.push(bytes.subarray(at, at + size));
    if (verdict.kind !== 'need-more') return verdict;
  }
  return sniffer.end();
}

describe('MPEG audio frame headers', () => {
  it("reads the emulator's frames (MPEG 2 layer III, 48 kbps, 22.05 kHz) and finds the next one by length", () => {
    const first = parseMpegFrameHeader(AUDIO, 0);
    expect(first).toMatchObject({ version: 2, layer: 3, bitrateKbps: 48, sampleRate: 22050 });
    const second = parseMpegFrameHeader(AUDIO, first!.frameLength);
    expect(second).toMatchObject({ version: 2, layer: 3, sampleRate: 22050 });
  });

  it('knows MPEG 1 layer III lengths (128 kbps at 44.1 kHz: 417 bytes, 418 padded)', () => {
    expect(parseMpegFrameHeader(Buffer.from([0xff, 0xfb, 0x90, 0x64]))).toMatchObject({ version: 1, layer: 3, frameLength: 417 });
    expect(parseMpegFrameHeader(Buffer.from([0xff, 0xfb, 0x92, 0x64]))?.frameLength).toBe(418);
  });

  it.each([
    ['no sync', [0xfe, 0xfb, 0x90, 0x64]],
    ['reserved version', [0xff, 0xeb, 0x90, 0x64]],
    ['reserved layer', [0xff, 0xf9, 0x90, 0x64]],
    ['free-format bitrate', [0xff, 0xfb, 0x00, 0x64]],
    ['bad bitrate', [0xff, 0xfb, 0xf0, 0x64]],
    ['reserved sample rate', [0xff, 0xfb, 0x9c, 0x64]],
    ['reserved emphasis', [0xff, 0xfb, 0x90, 0x66]],
  ])('refuses a header with %s', (_what, bytes) => {
    expect(parseMpegFrameHeader(Buffer.from(bytes))).toBeUndefined();
  });
});

describe('ID3v2 tag length', () => {
  it('adds the 10-byte header to the syncsafe size, and the footer when a v2.4 tag flags one', () => {
    expect(id3v2TagLength(id3v2Tag({ bodyBytes: 300 }))).toBe(310);
    expect(id3v2TagLength(id3v2Tag({ bodyBytes: 200_000 }))).toBe(200_010);
    expect(id3v2TagLength(id3v2Tag({ bodyBytes: 300, version: 4, footer: true }))).toBe(320);
  });

  it('tells no tag, too few bytes and a damaged header apart', () => {
    expect(id3v2TagLength(Buffer.from([0xff, 0xf3]))).toBeNull();
    expect(id3v2TagLength(Buffer.from('ID3'))).toBeUndefined();
    expect(id3v2TagLength(Buffer.from('ID3<!doctype html>'))).toEqual({ invalid: expect.stringContaining('version') });
    expect(id3v2TagLength(Buffer.from([0x49, 0x44, 0x33, 3, 0, 0, 0x80, 0, 0, 0]))).toEqual({ invalid: expect.stringContaining('size') });
  });
});

describe('recognising an MP3', () => {
  it("accepts the emulator's MP3, with and without an ID3 tag (v2.3, and v2.4 with a footer)", () => {
    expect(looksLikeMp3(AUDIO)).toBe(true);
    expect(looksLikeMp3(Buffer.concat([id3v2Tag(), AUDIO]))).toBe(true);
    expect(looksLikeMp3(Buffer.concat([id3v2Tag({ version: 4, footer: true }), AUDIO]))).toBe(true);
  });

  it('accepts whatever the chunk sizes, and past a large tag (cover art) without keeping it', () => {
    const tagged = Buffer.concat([id3v2Tag({ bodyBytes: 300_000 }), AUDIO]);
    for (const size of [1, 7, 1000, 65_536]) expect(sniff(tagged, size)).toEqual({ kind: 'mp3' });
    expect(sniff(AUDIO, 1)).toEqual({ kind: 'mp3' });
  });

  it('tolerates zero padding a tagger left after the declared tag size', () => {
    expect(looksLikeMp3(Buffer.concat([id3v2Tag(), Buffer.alloc(700), AUDIO]))).toBe(true);
  });

  it('refuses an ID3 tag followed by an HTML page (issue 9)', () => {
    const verdict = sniff(Buffer.concat([id3v2Tag(), HTML_PAGE]));
    expect(verdict).toEqual({ kind: 'not-mp3', reason: 'no MPEG audio frame starts where the audio should' });
    expect(looksLikeMp3(Buffer.concat([Buffer.from('ID3'), HTML_PAGE]))).toBe(false);
  });

  it('refuses an ID3 tag followed by random bytes', () => {
    for (let i = 0; i < 20; i += 1) expect(looksLikeMp3(Buffer.concat([id3v2Tag(), randomBytes(20_000)]))).toBe(false);
  });

  it('refuses bare HTML, an empty file and a tag with nothing after it', () => {
    expect(looksLikeMp3(HTML_PAGE)).toBe(false);
    expect(looksLikeMp3(Buffer.alloc(0))).toBe(false);
    expect(sniff(id3v2Tag())).toEqual({ kind: 'not-mp3', reason: 'it has no audio' });
    expect(sniff(id3v2Tag({ bodyBytes: 5000 }).subarray(0, 2000))).toEqual({ kind: 'not-mp3', reason: 'it ends inside its ID3 tag' });
  });

  it('refuses one valid frame header followed by something else', () => {
    const firstFrame = AUDIO.subarray(0, parseMpegFrameHeader(AUDIO, 0)!.frameLength);
    expect(sniff(Buffer.concat([id3v2Tag(), firstFrame, HTML_PAGE]))).toEqual({
      kind: 'not-mp3',
      reason: 'its first MPEG audio frame is not followed by another',
    });
    // A lone frame sync with junk where the frame should end: the old three-byte test let this through.
    expect(looksLikeMp3(Buffer.from([0xff, 0xfb, 0x90, 0x64, ...randomBytes(1000)]))).toBe(false);
  });

  it('accepts a single whole frame, and one followed by an ID3v1 tag', () => {
    const firstFrame = AUDIO.subarray(0, parseMpegFrameHeader(AUDIO, 0)!.frameLength);
    expect(looksLikeMp3(firstFrame)).toBe(true);
    expect(looksLikeMp3(Buffer.concat([firstFrame, Buffer.from('TAG'), Buffer.alloc(125)]))).toBe(true);
    expect(looksLikeMp3(firstFrame.subarray(0, 50))).toBe(false);
  });

  it('refuses at once a tag that claims more than the file may hold, without reading on', () => {
    const sniffer = new Mp3Sniffer(1024 * 1024);
    expect(sniffer.push(id3v2Tag({ bodyBytes: 2 * 1024 * 1024 }).subarray(0, 10))).toEqual({
      kind: 'too-large',
      tagBytes: 2 * 1024 * 1024 + 10,
    });
  });

  it('asks for more until two frames could be seen', () => {
    expect(checkMpegFrames(AUDIO.subarray(0, 10), false)).toEqual({ kind: 'need-more' });
    expect(checkMpegFrames(AUDIO.subarray(0, 400), false)).toEqual({ kind: 'mp3' });
  });
});
