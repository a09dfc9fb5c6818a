import { execFileSync } from 'child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'fs';
import os from 'os';
import path from 'path';
import { joinMp3, Mp3JoinError, mp3FileSource, type Mp3PartSource } from '../../../server/src/audio/mp3-join';
import { parseMpegFrameHeader } from '../../../server/src/audio/mp3-sniff';
import { decodeErrors, encodeMp3, exactToc, frameBytes, probe, readXing, walkFrames } from './ffmpeg-mp3';
import { HTML_PAGE, emulatorMp3, id3v2Tag, mp3DurationSeconds } from './mp3-fixtures';
import { joinSrt } from '../../../server/src/subtitles/join';
import { parseSrt } from '../../../server/src/subtitles/srt';

/**
 * Joining MP3 parts into one file, checked against real encoders and decoders: parts encoded by
 * ffmpeg's LAME (ID3v2 tags, LAME Info/Xing frames, ID3v1 tags) and by the emulator's encoder; the
 * joined file decoded end to end by ffmpeg and its frames counted by ffprobe.
 */

jest.setTimeout(60_000);

const SPF = 1152;
const RATE = 44100;
const FRAME_SECONDS = SPF / RATE;

let dir: string;
/** Constant bitrate parts of one stream (44.1 kHz mono, 128 kbps), with the tags ffmpeg writes, or none. */
let cbr: { tagged: string; withId3v1: string; bare: string; short: string };
/** Variable bitrate parts (44.1 kHz stereo): tone and noise alternate, so the bitrate swings. */
let vbr: string[];

const out = (name: string) => path.join(dir, name);

/** The bytes in chunks of `size`, as a download would give them. */
function chunked(bytes: Uint8Array, size: number): Mp3PartSource {
  return async function* () {
    for (let at = 0; at < bytes.length; at += size) yield bytes.subarray(at, at + size);
  };
}

/** The bytes in chunks of `size` read into one buffer that is reused for every chunk, as a file reader may. */
function reusedBuffer(bytes: Uint8Array, size: number): Mp3PartSource {
  return async function* () {
    const buffer = new Uint8Array(size);
    for (let at = 0; at < bytes.length; at += size) {
      const chunk = bytes.subarray(at, at + size);
      buffer.set(chunk);
      yield buffer.subarray(0, chunk.length);
    }
  };
}

/** The audio frames of a part as the encoder wrote them: its frames, less a Xing/Info frame leading them. */
function audioFramesOf(mp3: Uint8Array) {
  const frames = walkFrames(mp3);
  return readXing(mp3, frames[0]!.offset) ? frames.slice(1) : frames;
}

/** The joined file's frames: its header frame, then its audio frames. */
function joinedFrames(file: string) {
  const bytes = readFileSync(file);
  const [header, ...audio] = walkFrames(bytes);
  return { bytes, header: header!, audio, xing: readXing(bytes, header!.offset)! };
}

beforeAll(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'speech-mp3-join-'));
  const tone = (frequency: number, seconds: number) => `sine=frequency=${frequency}:duration=${seconds}:sample_rate=${RATE}`;
  cbr = {
    tagged: encodeMp3(dir, 'tagged.mp3', { source: tone(440, 2), bitrate: '128k' }),
    withId3v1: encodeMp3(dir, 'id3v1.mp3', { source: tone(660, 1.3), bitrate: '128k', id3v1: true }),
    bare: encodeMp3(dir, 'bare.mp3', { source: tone(550, 0.7), bitrate: '128k', id3v2: false, xing: false }),
    short: encodeMp3(dir, 'short.mp3', { source: tone(330, 0.4), bitrate: '128k' }),
  };
  const toneAndNoise = (seconds: number, frequency: number) =>
    `aevalsrc='if(lt(mod(t,1),0.5),0.4*sin(2*PI*${frequency}*t),0.3*(random(0)-0.5))':d=${seconds}:s=${RATE}`;
  vbr = [2, 1.5, 2.5].map((seconds, i) =>
    encodeMp3(dir, `vbr-${i}.mp3`, { source: toneAndNoise(seconds, 300 + 100 * i), channels: 2, vbrQuality: 2 })
  );
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('joining MP3 parts', () => {
  it('joins ffmpeg parts (ID3v2 tags, LAME Info frames, an ID3v1 tag, a bare one) into a file ffmpeg plays through, counted by one Info frame', async () => {
    const files = [cbr.tagged, cbr.withId3v1, cbr.bare];
    const joined = await joinMp3(
      files.map((file) => mp3FileSource(file)),
      out('cbr.mp3')
    );

    expect(decodeErrors(out('cbr.mp3'))).toBe('');
    const { bytes, header, audio, xing } = joinedFrames(out('cbr.mp3'));
    // One header frame at the very start, then only audio frames up to the last byte: no tag left in.
    expect(header.offset).toBe(0);
    expect(audio[audio.length - 1]!.offset + audio[audio.length - 1]!.length).toBe(bytes.length);
    expect(xing).toEqual(expect.objectContaining({ kind: 'Info', flags: 0b111, frames: audio.length, bytes: bytes.length }));
    expect(joined).toEqual(expect.objectContaining({ header: 'Info', frames: audio.length, bytes: bytes.length }));
    // Fewer frames than the TOC builder samples: every offset is kept and the TOC is exact (sampling: mp3-xing.test.ts).
    expect(xing.toc).toEqual(exactToc(audio, bytes.length));

    // ffprobe counts as many frames in the joined file as in the parts together, and as the header says.
    const parts = files.map((file) => probe(file));
    const whole = probe(out('cbr.mp3'));
    expect(whole.frames).toBe(xing.frames);
    expect(whole.frames).toBe(parts.reduce((sum, part) => sum + part.frames, 0));
    expect(joined.parts.map((part) => part.frames)).toEqual(parts.map((part) => part.frames));
    // Durations: exact in frames, and as ffprobe reports them within one frame.
    const partsSeconds = parts.reduce((sum, part) => sum + part.frames * FRAME_SECONDS, 0);
    expect(joined.durationSeconds).toBeCloseTo(partsSeconds, 9);
    expect(Math.abs(whole.durationSeconds - partsSeconds)).toBeLessThan(FRAME_SECONDS);
    expect(mp3DurationSeconds(bytes)).toBeCloseTo(joined.durationSeconds, 9);

    // The audio frames are the parts' own, byte for byte, each part's where the result says.
    const partFrames = files.map((file) => frameBytes(readFileSync(file), audioFramesOf(readFileSync(file))));
    expect(frameBytes(bytes, audio).equals(Buffer.concat(partFrames))).toBe(true);
    joined.parts.forEach((part, i) => {
      expect(bytes.subarray(part.audioOffset, part.audioOffset + part.audioLength).equals(partFrames[i]!)).toBe(true);
      expect(part.durationSeconds).toBeCloseTo((part.frames * SPF) / RATE, 12);
    });
    expect(joined.parts[0]!.audioOffset).toBe(header.length);
    expect(joined.parts.map((part) => part.startSeconds)).toEqual([
      0,
      joined.parts[0]!.durationSeconds,
      ((joined.parts[0]!.frames + joined.parts[1]!.frames) * SPF) / RATE,
    ]);
  });

  it('models the header frame on the audio: same version, sample rate and channel mode, the audio bitrate, no CRC', async () => {
    await joinMp3([mp3FileSource(cbr.tagged)], out('one.mp3'));
    const bytes = readFileSync(out('one.mp3'));
    const { header, audio } = joinedFrames(out('one.mp3'));
    const headerFrame = parseMpegFrameHeader(bytes, header.offset)!;
    const audioFrame = parseMpegFrameHeader(bytes, audio[0]!.offset)!;
    expect(headerFrame).toEqual(expect.objectContaining({ version: 1, layer: 3, sampleRate: RATE, bitrateKbps: 128, padding: false }));
    expect(audioFrame).toEqual(expect.objectContaining({ version: 1, layer: 3, sampleRate: RATE, bitrateKbps: 128 }));
    expect(bytes[1]! & 1).toBe(1);
    expect(bytes[3]! >> 6).toBe(bytes[audio[0]!.offset + 3]! >> 6);
  });

  it('gives variable bitrate parts one Xing frame whose TOC points where the frames are, and ffmpeg seeks and plays it', async () => {
    const joined = await joinMp3(
      vbr.map((file) => mp3FileSource(file)),
      out('vbr.mp3')
    );
    const { bytes, audio, xing } = joinedFrames(out('vbr.mp3'));
    expect(new Set(audio.map((frame) => frame.bitrateKbps)).size).toBeGreaterThan(3);
    expect(joined.header).toBe('Xing');
    expect(xing).toEqual(expect.objectContaining({ kind: 'Xing', flags: 0b111, frames: audio.length, bytes: bytes.length }));
    expect(xing.toc).toEqual(exactToc(audio, bytes.length));

    expect(decodeErrors(out('vbr.mp3'))).toBe('');
    expect(decodeErrors(out('vbr.mp3'), 3.2)).toBe('');
    const parts = vbr.map((file) => probe(file));
    const whole = probe(out('vbr.mp3'));
    expect(whole.frames).toBe(xing.frames);
    expect(whole.frames).toBe(parts.reduce((sum, part) => sum + part.frames, 0));
    expect(Math.abs(whole.durationSeconds - joined.durationSeconds)).toBeLessThan(FRAME_SECONDS);
  });

  it('writes the same file whatever the chunks the parts come in, a byte at a time or in a reused buffer', async () => {
    const parts = [readFileSync(cbr.short), readFileSync(cbr.withId3v1)];
    await joinMp3(
      parts.map((bytes) => chunked(bytes, bytes.length)),
      out('whole.mp3')
    );
    const expected = readFileSync(out('whole.mp3'));
    for (const [name, source] of [
      ['bytes', (bytes: Uint8Array) => chunked(bytes, 1)],
      ['sevens', (bytes: Uint8Array) => chunked(bytes, 7)],
      ['kilobytes', (bytes: Uint8Array) => chunked(bytes, 1000)],
      ['past-head', (bytes: Uint8Array) => chunked(bytes, 4099)],
      ['reused', (bytes: Uint8Array) => reusedBuffer(bytes, 333)],
      ['reused-large', (bytes: Uint8Array) => reusedBuffer(bytes, 5000)],
    ] as const) {
      await joinMp3(parts.map(source), out(`${name}.mp3`));
      expect({ name, same: readFileSync(out(`${name}.mp3`)).equals(expected) }).toEqual({ name, same: true });
    }
  });

  it('joins parts read back by byte range from a joined file: the same file again, and unchanged parts kept as they were', async () => {
    const first = await joinMp3(
      [cbr.tagged, cbr.withId3v1, cbr.bare].map((file) => mp3FileSource(file)),
      out('first.mp3')
    );
    const firstBytes = readFileSync(out('first.mp3'));

    const again = await joinMp3(
      first.parts.map((part) => mp3FileSource(out('first.mp3'), part)),
      out('again.mp3')
    );
    expect(readFileSync(out('again.mp3')).equals(firstBytes)).toBe(true);
    expect(again.parts).toEqual(first.parts);

    // The middle part narrated anew: the others are read back from the first file, not from the service.
    const second = await joinMp3(
      [mp3FileSource(out('first.mp3'), first.parts[0]), mp3FileSource(cbr.short), mp3FileSource(out('first.mp3'), first.parts[2])],
      out('second.mp3')
    );
    const secondBytes = readFileSync(out('second.mp3'));
    const range = (bytes: Buffer, part: { audioOffset: number; audioLength: number }) =>
      bytes.subarray(part.audioOffset, part.audioOffset + part.audioLength);
    expect(range(secondBytes, second.parts[0]!).equals(range(firstBytes, first.parts[0]!))).toBe(true);
    expect(range(secondBytes, second.parts[2]!).equals(range(firstBytes, first.parts[2]!))).toBe(true);
    expect(second.parts.map((part) => part.frames)).toEqual([first.parts[0]!.frames, probe(cbr.short).frames, first.parts[2]!.frames]);
    expect(decodeErrors(out('second.mp3'))).toBe('');
    expect(probe(out('second.mp3')).frames).toBe(second.frames);
  });

  it('writes a tag in front when asked: the offsets and the length count it, the audio behind it is the same file', async () => {
    const parts = () => [cbr.tagged, cbr.bare].map((file) => mp3FileSource(file));
    const plain = await joinMp3(parts(), out('plain-joined.mp3'));
    const head = id3v2Tag({ title: 'Tagged in front' });
    const tagged = await joinMp3(parts(), out('tag-in-front.mp3'), head);
    const bytes = readFileSync(out('tag-in-front.mp3'));
    expect(bytes.subarray(0, head.length).equals(head)).toBe(true);
    expect(bytes.subarray(head.length).equals(readFileSync(out('plain-joined.mp3')))).toBe(true);
    expect(tagged.bytes).toBe(bytes.length);
    expect(tagged.parts.map((part) => part.audioOffset)).toEqual(plain.parts.map((part) => part.audioOffset + head.length));
    // Read back by range from the tagged file, the parts join into the plain file again.
    await joinMp3(
      tagged.parts.map((part) => mp3FileSource(out('tag-in-front.mp3'), part)),
      out('tag-read-back.mp3')
    );
    expect(readFileSync(out('tag-read-back.mp3')).equals(readFileSync(out('plain-joined.mp3')))).toBe(true);
    expect(probe(out('tag-in-front.mp3')).frames).toBe(tagged.frames);
  });

  it('reads files with one reused buffer a part, and two joins at once do not share one', async () => {
    const first = [cbr.tagged, cbr.withId3v1, cbr.bare];
    const second = [vbr[0]!, vbr[1]!];
    await joinMp3(
      first.map((file) => mp3FileSource(file)),
      out('alone-1.mp3')
    );
    await joinMp3(
      second.map((file) => mp3FileSource(file)),
      out('alone-2.mp3')
    );
    await Promise.all([
      joinMp3(
        first.map((file) => mp3FileSource(file)),
        out('together-1.mp3')
      ),
      joinMp3(
        second.map((file) => mp3FileSource(file)),
        out('together-2.mp3')
      ),
      joinMp3([mp3FileSource(cbr.short), mp3FileSource(cbr.bare)], out('together-3.mp3')),
    ]);
    expect(readFileSync(out('together-1.mp3')).equals(readFileSync(out('alone-1.mp3')))).toBe(true);
    expect(readFileSync(out('together-2.mp3')).equals(readFileSync(out('alone-2.mp3')))).toBe(true);
  });

  it("joins the emulator's parts (MPEG 2, 22.05 kHz mono) behind ID3v2 tags, zero padding, and before APEv2, Lyrics3 and ID3v1 tags", async () => {
    const [one, two] = [emulatorMp3(1), emulatorMp3(0.5)];
    const id3v1 = Buffer.concat([Buffer.from('TAG', 'latin1'), Buffer.alloc(125, 0x20)]);
    const ape = Buffer.concat([Buffer.from('APETAGEX', 'latin1'), Buffer.alloc(24)]);
    const lyrics = Buffer.from('LYRICSBEGINsome words000016LYRICS200', 'latin1');
    const parts = [
      Buffer.concat([id3v2Tag({ version: 4, footer: true }), Buffer.alloc(100), one!, ape, id3v1]),
      Buffer.concat([id3v2Tag({ bodyBytes: 3000 }), two!, lyrics, id3v1]),
      one!,
    ];
    const joined = await joinMp3(
      parts.map((bytes) => chunked(bytes, 512)),
      out('emulator.mp3')
    );
    const { bytes, audio, xing } = joinedFrames(out('emulator.mp3'));
    expect(frameBytes(bytes, audio).equals(Buffer.concat([one!, two!, one!]))).toBe(true);
    expect(xing).toEqual(expect.objectContaining({ kind: 'Info', frames: audio.length, bytes: bytes.length }));
    expect(joined.stream).toEqual({ version: 2, sampleRate: 22050, channels: 1, samplesPerFrame: 576 });
    expect(joined.durationSeconds).toBeCloseTo((audio.length * 576) / 22050, 12);
    expect(decodeErrors(out('emulator.mp3'))).toBe('');
    expect(probe(out('emulator.mp3')).frames).toBe(audio.length);
  });

  it('drops a last frame cut short, as decoders do', async () => {
    const part = readFileSync(cbr.bare);
    const frames = walkFrames(part);
    const cut = part.subarray(0, frames[frames.length - 1]!.offset + 100);
    const joined = await joinMp3([chunked(cut, 4096)], out('cut.mp3'));
    expect(joined.frames).toBe(frames.length - 1);
    expect(decodeErrors(out('cut.mp3'))).toBe('');
  });
});

describe('the subtitles of the joined file', () => {
  it('puts the cues in order, each part where its audio starts, the last ending within 100 ms of the audio', async () => {
    // Each part as a speech service sends it: the audio (with the encoder's delay and padding) and an
    // SRT timed on the speech, a cue every 400 ms up to the speech's end.
    const speechSeconds = [1.2, 2, 0.8, 1.5, 1];
    const files = speechSeconds.map((seconds, i) =>
      encodeMp3(dir, `speech-${i}.mp3`, { source: `sine=frequency=${400 + 50 * i}:duration=${seconds}`, bitrate: '128k' })
    );
    const srts = speechSeconds.map((seconds, part) => {
      const cues = Array.from({ length: Math.ceil((seconds * 1000) / 400) }, (_, i) => [i * 400, Math.min((i + 1) * 400, seconds * 1000)]);
      return cues
        .map(([start, end], i) => `${i + 1}\n${srtTime(start!)} --> ${srtTime(end!)}\nPart ${part + 1}, line ${i + 1}\n`)
        .join('\n');
    });
    const audio = await joinMp3(
      files.map((file) => mp3FileSource(file)),
      out('speech.mp3')
    );
    const subtitles = joinSrt(srts.map((srt, i) => ({ srt, durationSeconds: audio.parts[i]!.durationSeconds })));

    const cues = parseSrt(subtitles.srt);
    expect(cues.length).toBe(srts.reduce((sum, srt) => sum + parseSrt(srt).length, 0));
    expect(cues.every((each, i) => each.endMs > each.startMs && (i === 0 || each.startMs >= cues[i - 1]!.startMs))).toBe(true);
    // Each part's first cue starts where ffprobe counts the frames before it.
    const framesBefore = files.map((_, i) => files.slice(0, i).reduce((sum, file) => sum + probe(file).frames, 0));
    subtitles.parts.forEach((part, i) =>
      expect(Math.abs(cues[part.first]!.startMs - framesBefore[i]! * FRAME_SECONDS * 1000)).toBeLessThanOrEqual(0.5)
    );
    const audioEndMs = probe(out('speech.mp3')).durationSeconds * 1000;
    expect(Math.abs(audioEndMs - cues[cues.length - 1]!.endMs)).toBeLessThan(100);
  });
});

describe('parts refused', () => {
  /** The error joinMp3 threw, and whether it left the output file behind. */
  async function refusal(parts: Mp3PartSource[]) {
    const file = out('refused.mp3');
    const error = await joinMp3(parts, file).then(
      () => null,
      (thrown: unknown) => thrown
    );
    return { error: error as Mp3JoinError, left: existsSync(file) };
  }

  it('refuses a part of another sample rate or channel count, naming the part, and leaves no file', async () => {
    const lowRate = encodeMp3(dir, 'low-rate.mp3', { source: 'sine=frequency=440:duration=0.5', sampleRate: 22050, bitrate: '64k' });
    const stereo = encodeMp3(dir, 'stereo.mp3', { source: 'sine=frequency=440:duration=0.5', channels: 2, bitrate: '128k' });

    const rate = await refusal([mp3FileSource(cbr.tagged), mp3FileSource(lowRate)]);
    expect(rate.error).toBeInstanceOf(Mp3JoinError);
    expect(rate.error.partIndex).toBe(1);
    expect(rate.error.message).toBe('part 2 of 2: it is MPEG 2 at 22050 Hz, mono where MPEG 1 at 44100 Hz, mono was expected');
    expect(rate.left).toBe(false);

    const channels = await refusal([mp3FileSource(cbr.tagged), mp3FileSource(cbr.short), mp3FileSource(stereo)]);
    expect(channels.error.partIndex).toBe(2);
    expect(channels.error.message).toMatch(/^part 3 of 3: it is MPEG 1 at 44100 Hz, stereo where MPEG 1 at 44100 Hz, mono was expected$/);
    expect(channels.left).toBe(false);
  });

  it('refuses a part without audio: a tag alone, an HTML page, nothing, a Xing frame alone', async () => {
    const tagged = readFileSync(cbr.tagged);
    const xingOnly = tagged.subarray(0, walkFrames(tagged)[1]!.offset);
    for (const [part, message] of [
      [id3v2Tag(), 'it holds no MPEG audio frame'],
      [HTML_PAGE, 'no MPEG audio frame starts where its audio should (byte 0)'],
      [Buffer.alloc(0), 'it holds no MPEG audio frame'],
      [xingOnly, 'it holds no MPEG audio frame'],
    ] as const) {
      const { error, left } = await refusal([mp3FileSource(cbr.short), chunked(part, 100)]);
      expect({ partIndex: error.partIndex, message: error.message, left }).toEqual({
        partIndex: 1,
        message: `part 2 of 2: ${message}`,
        left: false,
      });
    }
    expect((await refusal([])).error.message).toBe('no part to join');
  });

  it('refuses a part damaged in the middle, and a part of MPEG layer II', async () => {
    const bare = readFileSync(cbr.bare);
    const frames = walkFrames(bare);
    const damaged = Buffer.concat([bare.subarray(0, frames[5]!.offset), Buffer.from('garbage!'), bare.subarray(frames[5]!.offset)]);
    const { error } = await refusal([chunked(damaged, 64)]);
    expect(error.message).toBe(
      `part 1 of 1: bytes at ${frames[5]!.offset} are neither an MPEG audio frame nor a known tag: the file is damaged`
    );

    const layer2 = path.join(dir, 'layer2.mp2');
    encodeMp2(layer2);
    expect((await refusal([mp3FileSource(layer2)])).error.message).toBe('part 1 of 1: it is MPEG layer 2 audio, not MP3 (layer III)');
  });

  it('refuses a byte range that runs past the end of its file', async () => {
    const size = readFileSync(cbr.bare).length;
    const { error, left } = await refusal([mp3FileSource(cbr.bare, { audioOffset: 0, audioLength: size + 10 })]);
    expect(error.message).toBe(`${cbr.bare} ends at byte ${size}, inside the range 0 + ${size + 10}`);
    expect(left).toBe(false);
  });

  it("throws a source's own error as it came, and leaves no file", async () => {
    const failing: Mp3PartSource = async function* () {
      yield readFileSync(cbr.bare).subarray(0, 5000);
      throw new Error('connection reset');
    };
    const { error, left } = await refusal([mp3FileSource(cbr.short), failing]);
    expect(error).not.toBeInstanceOf(Mp3JoinError);
    expect(error.message).toBe('connection reset');
    expect(left).toBe(false);
  });
});

/** MPEG layer II audio (ffmpeg's mp2 encoder): MPEG frames, but not MP3's. */
function encodeMp2(file: string): void {
  execFileSync('ffmpeg', ['-v', 'error', '-y', '-f', 'lavfi', '-i', 'sine=duration=0.3', '-c:a', 'mp2', '-f', 'mp2', file]);
}

/** Milliseconds as an SRT timestamp. */
function srtTime(ms: number): string {
  const pad = (value: number, width = 2) => String(Math.floor(value)).padStart(width, '0');
  return `${pad(ms / 3_600_000)}:${pad((ms / 60_000) % 60)}:${pad((ms / 1000) % 60)},${pad(ms % 1000, 3)}`;
}
