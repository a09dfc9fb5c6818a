/**
 * The honesty rule for the emulator's own audio carried by another MP3 file: recognised by its MPEG
 * audio frames, as the plugin sends them when it checks a segmented narration part by part (each
 * part's frames cut out of the joined file, bare or under a new Xing/Info header frame) or whole.
 * The plugin's own joiner (server/src/audio) builds the files here, as the plugin would.
 */
import { createHash } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { joinMp3, mp3FileSource, type Mp3PartSource } from '../../server/src/audio/mp3-join';
import { Mp3FrameWalker } from '../../server/src/audio/mp3-frames';
import { startEmulatorProcess, type EmulatorProcess } from './spawn-emulator';
import {
  mp3Info,
  narrationBody,
  parseSrt,
  requestJson,
  startCallbackServer,
  uploadMultipart,
  waitUntil,
  type CallbackServer,
} from './helpers';

jest.setTimeout(40000);

interface Segment {
  start: number;
  end: number;
  text: string;
}
interface Narration {
  mp3: Buffer;
  srt: string;
  sha256: string;
}

const FIRST_TEXT = 'The first article is short. It has two sentences.';
const SECOND_TEXT = 'Here comes the second article. It ends right here.';

let emulator: EmulatorProcess;
let callbacks: CallbackServer;
let dir: string;
let first: Narration;
let second: Narration;

// No reset between the tests: the emulator recognises only the audio it made since the last one.
beforeAll(async () => {
  [emulator, callbacks, dir] = await Promise.all([
    startEmulatorProcess({ delayMs: 50, args: ['--stt-queued-ms', '100', '--stt-processing-ms', '100'] }),
    startCallbackServer(),
    mkdtemp(path.join(os.tmpdir(), 'emulator-stt-frames-')),
  ]);
  first = await narrate('frames-first', FIRST_TEXT);
  second = await narrate('frames-second', SECOND_TEXT);
});
afterAll(async () => {
  await emulator?.stop();
  await callbacks?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

/** Narrates with en-male-1 (byte-deterministic) and downloads the MP3 and SRT the callback names. */
async function narrate(articleId: string, text: string): Promise<Narration> {
  const res = await requestJson(`${emulator.url}/process-text`, { body: narrationBody(articleId, callbacks.url, {}, text) });
  expect(res.status).toBe(202);
  const callback = await waitUntil(() => callbacks.received.find((c) => c.body.articleId === articleId), 15000, `callback of ${articleId}`);
  const { audioFile, srtFile } = callback.body.response;
  const mp3 = Buffer.from(await (await fetch(audioFile)).arrayBuffer());
  const srt = await (await fetch(srtFile)).text();
  return { mp3, srt, sha256: sha256(mp3) };
}

/** Submits to STT and polls until the job is done; answers the final status body and the job as the control API shows it. */
async function transcribe(mp3: Buffer, outputFormat = 'json') {
  const submitted = await uploadMultipart(`${emulator.webUrl}/api/v1/stt/submit/`, [
    { name: 'audio', file: { filename: 'part.mp3', contentType: 'audio/mpeg', data: mp3 } },
    { name: 'language', value: 'en-US' },
    { name: 'output_format', value: outputFormat },
  ]);
  expect(submitted.status).toBe(200);
  const jobId = submitted.body.job_id as string;
  const final = await waitUntil(
    async () => {
      const res = await requestJson(`${emulator.webUrl}/api/v1/stt/status/${jobId}/`);
      return ['queued', 'processing'].includes(res.body.status) ? null : res.body;
    },
    15000,
    `STT job ${jobId}`
  );
  expect(final.status).toBe('completed');
  const { jobs } = await emulator.control('stt-jobs');
  return { final, job: jobs.find((j: { job_id: string }) => j.job_id === jobId) };
}

/** The audio frames of an MP3 as the plugin's joiner finds them: ID3 tags, padding, a header frame and trailing tags dropped. */
function framesOf(mp3: Buffer): Buffer[] {
  const frames: Buffer[] = [];
  const walker = new Mp3FrameWalker({ onFrame: (frame) => frames.push(Buffer.from(frame)) });
  walker.push(mp3);
  walker.end();
  return frames;
}

const source = (bytes: Buffer): Mp3PartSource =>
  async function* () {
    yield bytes;
  };

let files = 0;
/** joinMp3 of the sources into a new file: the header frame (Info) and the frames back to back. */
async function join(sources: Mp3PartSource[]) {
  const out = path.join(dir, `joined-${++files}.mp3`);
  const joined = await joinMp3(sources, out);
  return { joined, out, bytes: await readFile(out) };
}

/** An ID3v2.3 tag with a title frame, the zero padding taggers leave after it, the audio, then an ID3v1 tag. */
function tagged(mp3: Buffer): Buffer {
  const title = Buffer.from('\u0000A narration', 'latin1');
  const frame = Buffer.concat([Buffer.from('TIT2', 'latin1'), Buffer.from([0, 0, 0, title.length, 0, 0]), title]);
  const body = Buffer.concat([frame, Buffer.alloc(64)]);
  const header = Buffer.from([0x49, 0x44, 0x33, 3, 0, 0, 0, 0, body.length >> 7, body.length & 0x7f]);
  const id3v1 = Buffer.alloc(128);
  id3v1.write('TAGA narration', 0, 'latin1');
  return Buffer.concat([header, body, Buffer.alloc(100), mp3, id3v1]);
}

/**
 * The segments say the SRT's cues, shifted. Both are rounded to the millisecond, each from the exact
 * time: a shifted cue may be 1 ms off the shifted SRT time, never more.
 */
function expectSegmentsOf(segments: Segment[], srt: string, shiftSec = 0) {
  const cues = parseSrt(srt);
  expect(segments.map((s) => s.text)).toEqual(cues.map((c) => c.text));
  const tolerance = shiftSec === 0 ? 0.0005 : 0.0011;
  segments.forEach((segment, i) => {
    expect(Math.abs(segment.start - (cues[i].start + shiftSec))).toBeLessThan(tolerance);
    expect(Math.abs(segment.end - (cues[i].end + shiftSec))).toBeLessThan(tolerance);
  });
}

describe('recognising its audio by its MPEG audio frames', () => {
  it('transcribes a copy under other tags by its frames, and its frames alone are its very file', async () => {
    const copy = tagged(first.mp3);
    expect(sha256(copy)).not.toBe(first.sha256);
    const { final, job } = await transcribe(copy, 'srt');
    expect(final.result.subtitles).toBe(first.srt);
    expect(job).toMatchObject({ transcriptSource: 'emulator-audio-frames', recognisedAudio: [first.sha256] });

    // Stripped of the tags: the emulator's MP3s are bare frames, so this is the narration file, byte for byte.
    const stripped = Buffer.concat(framesOf(copy));
    expect(stripped.equals(first.mp3)).toBe(true);
    const bare = await transcribe(stripped);
    expectSegmentsOf(bare.final.result.subtitles, first.srt);
    expect(bare.job.transcriptSource).toBe('emulator-audio');
  });

  it('transcribes its frames under a new Xing/Info header frame (joinMp3 of one part) as its sentences', async () => {
    const { joined, bytes } = await join([source(Buffer.concat(framesOf(first.mp3)))]);
    expect(joined.header).toBe('Info');
    expect(bytes.length).toBeGreaterThan(first.mp3.length);
    const { final, job } = await transcribe(bytes);
    expectSegmentsOf(final.result.subtitles, first.srt);
    expect(job).toMatchObject({ transcriptSource: 'emulator-audio-frames', recognisedAudio: [first.sha256] });
  });

  it('does not recognise its frames with one frame taken out, in the middle or at the end', async () => {
    const frames = framesOf(first.mp3);
    const withoutMiddle = Buffer.concat(frames.filter((_, i) => i !== 5));
    const withoutLast = (await join([source(Buffer.concat(frames.slice(0, -1)))])).bytes;
    for (const mp3 of [withoutMiddle, withoutLast]) {
      const { final, job } = await transcribe(mp3);
      expect(final.result.subtitles).toEqual([{ start: 0, end: expect.any(Number), text: '[untranscribed audio]' }]);
      expect(job).toMatchObject({ transcriptSource: 'mp3-duration', recognisedAudio: [] });
    }
  });

  it('transcribes a part cut out of a joined narration, bare or wrapped, as that part', async () => {
    const { joined, out } = await join([source(first.mp3), source(second.mp3)]);
    const part = joined.parts[1];
    // Bare: the part's frames are the second narration's file itself.
    const cut = (await readFile(out)).subarray(part.audioOffset, part.audioOffset + part.audioLength);
    expect(cut.equals(second.mp3)).toBe(true);
    // Wrapped, as the plugin sends a part: joinMp3 of the joined file's byte range.
    const wrapped = (await join([mp3FileSource(out, part)])).bytes;
    const { final, job } = await transcribe(wrapped);
    expectSegmentsOf(final.result.subtitles, second.srt);
    expect(job).toMatchObject({ transcriptSource: 'emulator-audio-frames', recognisedAudio: [second.sha256] });
  });

  it('transcribes a joined narration as both articles, the second one’s times shifted by the first one’s frames', async () => {
    const { joined, bytes } = await join([source(first.mp3), source(second.mp3)]);
    // The first part lasts its frames: 576 samples each at 22.05 kHz, longer than its sentences by the encoder's padding.
    const shift = mp3Info(first.mp3).durationSec;
    expect(joined.parts[1].startSeconds).toBeCloseTo(shift, 9);

    const { final, job } = await transcribe(bytes);
    const segments: Segment[] = final.result.subtitles;
    expect(segments.map((s) => s.text)).toEqual([
      'The first article is short.',
      'It has two sentences.',
      'Here comes the second article.',
      'It ends right here.',
    ]);
    expectSegmentsOf(segments.slice(0, 2), first.srt);
    expectSegmentsOf(segments.slice(2), second.srt, shift);
    expect(job).toMatchObject({ transcriptSource: 'emulator-audio-joined', recognisedAudio: [first.sha256, second.sha256] });

    // The SRT output says the same; the frames back to back without a header frame too.
    const srt = parseSrt((await transcribe(bytes, 'srt')).final.result.subtitles);
    expect(srt.map((c) => c.text)).toEqual(segments.map((s) => s.text));
    srt.forEach((cue, i) => {
      expect(cue.start).toBeCloseTo(segments[i].start, 6);
      expect(cue.end).toBeCloseTo(segments[i].end, 6);
    });
    const bare = await transcribe(Buffer.concat([second.mp3, first.mp3, second.mp3]));
    expect(bare.final.result.subtitles.map((s: Segment) => s.text)).toEqual([
      'Here comes the second article.',
      'It ends right here.',
      'The first article is short.',
      'It has two sentences.',
      'Here comes the second article.',
      'It ends right here.',
    ]);
    expect(bare.job.recognisedAudio).toEqual([second.sha256, first.sha256, second.sha256]);

    // The control API finds the job by either article's audio.
    const { jobs } = await emulator.control(`stt-jobs?sha256=${first.sha256}`);
    expect(jobs.map((j: { job_id: string }) => j.job_id)).toContain(job.job_id);
  });

  it('does not recognise a joined file with a frame the emulator did not make', async () => {
    const frames = framesOf(second.mp3);
    const altered = Buffer.from(frames[3]);
    altered[altered.length - 1] ^= 0xff;
    const { bytes } = await join([source(first.mp3), source(Buffer.concat([...frames.slice(0, 3), altered, ...frames.slice(4)]))]);
    const { final, job } = await transcribe(bytes);
    expect(final.result.subtitles).toHaveLength(1);
    expect(final.result.subtitles[0].text).toBe('[untranscribed audio]');
    expect(job.transcriptSource).toBe('mp3-duration');
  });
});
