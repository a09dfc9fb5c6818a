import { open, rm, type FileHandle } from 'fs/promises';
import { Mp3FrameWalker, Mp3StreamError, type Mp3Stream } from './mp3-frames';
import { buildXingFrame, xingFrameLayout, XingTocBuilder, type XingFrameLayout } from './xing';

/**
 * Joins the MP3 parts of a segmented narration into one MP3 file, streaming: each part is read chunk
 * by chunk, its own headers and tags dropped (see mp3-frames.ts) and its audio frames written as they
 * come, after a header frame reserved at the start; once the counts and the seek table are known, the
 * header frame is written in its place (see xing.ts). Memory does not grow with the narration: a
 * chunk, a frame kept between two chunks and the seek table's samples.
 *
 * Durations are counted in frames, every frame of a stream decoding to the same number of samples, so
 * a part's duration and its start in the joined file are exact; the subtitles are shifted by them.
 *
 * Hand-written: no maintained library streams MP3 frames with their Xing header rebuilt (the npm
 * packages that join MP3s run ffmpeg, which a Strapi host may not have, or buffer whole files).
 */

/** A part's bytes, read afresh on each call: a download, a file, or the byte range of an earlier joined file. */
export type Mp3PartSource = () => AsyncIterable<Uint8Array>;

export interface JoinedMp3Part {
  /** Audio frames of the part (its header frame and tags not counted). */
  frames: number;
  /** frames × samples per frame / sample rate: exact. */
  durationSeconds: number;
  /** Where the part starts in the joined file's timeline: the preceding parts' durations, exact. */
  startSeconds: number;
  /** The byte range of the part's frames in the joined file: read back (mp3FileSource) to join it again unchanged. */
  audioOffset: number;
  audioLength: number;
}

export interface JoinedMp3 {
  /** Audio frames of the whole file (its header frame not counted). */
  frames: number;
  durationSeconds: number;
  /** The whole file's length. */
  bytes: number;
  stream: Mp3Stream;
  /** The header frame written: "Info" when every frame has one bitrate, "Xing" otherwise. */
  header: 'Xing' | 'Info';
  parts: JoinedMp3Part[];
}

/** A part cannot be joined: `partIndex` (0-based) says which, the message why. */
export class Mp3JoinError extends Error {
  constructor(
    readonly partIndex: number | null,
    message: string
  ) {
    super(message);
    this.name = 'Mp3JoinError';
  }
}

/**
 * Writes the parts, in order, as one MP3 at `outputPath` (created or replaced). Every part must be of
 * the first part's stream (MPEG version, sample rate, channels: one voice gives one) and hold audio
 * frames; otherwise Mp3JoinError, naming the part. An error of a source (a download failing) is thrown
 * as it came. On any error the output file is removed.
 */
export async function joinMp3(parts: readonly Mp3PartSource[], outputPath: string): Promise<JoinedMp3> {
  if (parts.length === 0) throw new Mp3JoinError(null, 'no part to join');
  const file = await open(outputPath, 'w');
  try {
    const joined = await writeJoined(file, parts);
    await file.close();
    return joined;
  } catch (error) {
    await file.close().catch(() => undefined);
    await rm(outputPath, { force: true });
    throw error;
  }
}

/** How much of a part file is read at a time. */
const READ_CHUNK_BYTES = 64 * 1024;
/**
 * Read buffers of parts read before, for the next ones: a narration of 90 parts would otherwise leave
 * 90 buffers (6 MB) for the garbage collector, which frees them only when it runs. Two are kept, for
 * two joins at a time; more joins at once allocate their own.
 */
const spareReadBuffers: Buffer[] = [];
const SPARE_READ_BUFFERS = 2;

/**
 * A file, or the byte range of one (an earlier joined file's part: `audioOffset`, `audioLength`), as a
 * part source. Its chunks are views of one buffer, each valid until the next is asked for (joinMp3
 * writes or copies what it takes before asking): reading a long narration allocates nothing.
 */
export function mp3FileSource(path: string, range?: Pick<JoinedMp3Part, 'audioOffset' | 'audioLength'>): Mp3PartSource {
  return async function* () {
    const file = await open(path, 'r');
    const buffer = spareReadBuffers.pop() ?? Buffer.allocUnsafeSlow(READ_CHUNK_BYTES);
    try {
      const end = range ? range.audioOffset + range.audioLength : Infinity;
      for (let position = range?.audioOffset ?? 0; position < end; ) {
        const { bytesRead } = await file.read(buffer, 0, Math.min(buffer.length, end - position), position);
        if (bytesRead === 0) {
          if (range) throw new Error(`${path} ends at byte ${position}, inside the range ${range.audioOffset} + ${range.audioLength}`);
          break;
        }
        position += bytesRead;
        yield buffer.subarray(0, bytesRead);
      }
    } finally {
      if (spareReadBuffers.length < SPARE_READ_BUFFERS) spareReadBuffers.push(buffer);
      await file.close();
    }
  };
}

/**
 * The joined file as it is written: the header frame's place reserved at the first frame, then the
 * parts' frames, each placed (for the TOC) where it will be written when the walker hands its run over.
 */
class JoinedFileWriter {
  /** Bytes of the file so far, the header frame's place included. */
  position = 0;
  frames = 0;
  /** Bytes of audio frames so far. */
  audioBytes = 0;
  layout: XingFrameLayout | undefined;
  variableBitrate = false;
  private readonly toc = new XingTocBuilder();
  private bitrateIndex = -1;
  /** Bytes of the frames taken since the last write: they are written next, in order. */
  private unwritten = 0;

  constructor(private readonly file: FileHandle) {}

  /** The walker's onFrame: a frame that the next write will write. */
  addFrame(frame: Uint8Array): void {
    if (!this.layout) {
      // The first frame of the first part gives the header frame its stream and channel mode.
      this.layout = xingFrameLayout(frame.subarray(0, 4));
      this.position = this.layout.frameLength;
    }
    this.toc.addFrame(this.position + this.unwritten);
    this.unwritten += frame.length;
    const bitrateIndex = frame[2]! >> 4;
    if (this.bitrateIndex >= 0 && bitrateIndex !== this.bitrateIndex) this.variableBitrate = true;
    this.bitrateIndex = bitrateIndex;
    this.frames += 1;
  }

  /** Writes the runs of frames the walker answered (the header frame's place stays a hole until `finish`). */
  async write(runs: Uint8Array[]): Promise<void> {
    const bytes = runs.reduce((sum, run) => sum + run.length, 0);
    if (bytes !== this.unwritten) throw new Error(`the walker answered ${bytes} bytes of frames where it announced ${this.unwritten}`);
    if (bytes > 0) await this.file.writev(runs, this.position);
    this.position += bytes;
    this.audioBytes += bytes;
    this.unwritten = 0;
  }

  /** Writes the header frame in its place, now that the counts are known; answers its kind. */
  async finish(): Promise<'Xing' | 'Info'> {
    const kind = this.variableBitrate ? 'Xing' : 'Info';
    const frame = buildXingFrame(this.layout!, { kind, frames: this.frames, bytes: this.position, toc: this.toc.toc(this.position) });
    await this.file.write(frame, 0, frame.length, 0);
    return kind;
  }
}

async function writeJoined(file: FileHandle, sources: readonly Mp3PartSource[]): Promise<JoinedMp3> {
  const writer = new JoinedFileWriter(file);
  let stream: Mp3Stream | undefined;
  const parts: JoinedMp3Part[] = [];
  for (const [index, source] of sources.entries()) {
    const framesBefore = writer.frames;
    const audioBytesBefore = writer.audioBytes;
    const walker = new Mp3FrameWalker({ expected: stream, onFrame: (frame) => writer.addFrame(frame) });
    const walk = (step: () => Uint8Array[]) => {
      try {
        return step();
      } catch (error) {
        if (error instanceof Mp3StreamError) throw new Mp3JoinError(index, `part ${index + 1} of ${sources.length}: ${error.message}`);
        throw error;
      }
    };
    for await (const chunk of source()) await writer.write(walk(() => walker.push(chunk)));
    await writer.write(walk(() => walker.end()));
    stream ??= walker.stream!;
    const audioLength = writer.audioBytes - audioBytesBefore;
    parts.push({
      frames: walker.frames,
      durationSeconds: secondsOf(walker.frames, stream),
      startSeconds: secondsOf(framesBefore, stream),
      audioOffset: writer.position - audioLength,
      audioLength,
    });
  }
  const header = await writer.finish();
  return {
    frames: writer.frames,
    durationSeconds: secondsOf(writer.frames, stream!),
    bytes: writer.position,
    stream: stream!,
    header,
    parts,
  };
}

const secondsOf = (frames: number, stream: Mp3Stream) => (frames * stream.samplesPerFrame) / stream.sampleRate;
