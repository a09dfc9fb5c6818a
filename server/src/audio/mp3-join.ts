import { open, rm, type FileHandle } from 'fs/promises';
import { Mp3FrameWalker, Mp3StreamError, type Mp3Stream } from './mp3-frames';
import { buildXingFrame, xingFrameLayout, XingTocBuilder, type XingFrameLayout } from './xing';

/**
 * Joins a segmented narration's MP3 parts into one file, streaming, then writes the Xing header
 * frame in the place reserved for it. Durations are counted in frames, so part starts are exact.
 * Hand-written: npm's MP3 joiners run ffmpeg (a Strapi host may not have it) or buffer whole files.
 */

/** Read afresh on each call: a download, a file, or a byte range of an earlier joined file. */
export type Mp3PartSource = () => AsyncIterable<Uint8Array>;

export interface JoinedMp3Part {
  frames: number;
  durationSeconds: number;
  startSeconds: number;
  /** The part's frames in the joined file: read back (mp3FileSource) to join it again unchanged. */
  audioOffset: number;
  audioLength: number;
}

export interface JoinedMp3 {
  frames: number;
  durationSeconds: number;
  bytes: number;
  stream: Mp3Stream;
  header: 'Xing' | 'Info';
  parts: JoinedMp3Part[];
}

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
 * Every part must share the first part's stream; on any error the output file is removed. `head`
 * (an ID3v2 tag) is written first: `bytes` and the parts' offsets count it, the Xing frame does not.
 */
export async function joinMp3(
  parts: readonly Mp3PartSource[],
  outputPath: string,
  head: Uint8Array = new Uint8Array(0)
): Promise<JoinedMp3> {
  if (parts.length === 0) throw new Mp3JoinError(null, 'no part to join');
  const file = await open(outputPath, 'w');
  try {
    if (head.length > 0) await file.write(head, 0, head.length, 0);
    const joined = await writeJoined(file, parts, head.length);
    await file.close();
    return joined;
  } catch (error) {
    await file.close().catch(() => undefined);
    await rm(outputPath, { force: true });
    throw error;
  }
}

const READ_CHUNK_BYTES = 64 * 1024;
/** Reused read buffers: 90 parts would otherwise leave 6 MB for the collector. Two, for two joins at a time. */
const spareReadBuffers: Buffer[] = [];
const SPARE_READ_BUFFERS = 2;

/** Its chunks are views of one buffer, each valid until the next is asked for. */
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

/** The header frame's place is reserved; each frame is placed for the TOC where it will be written. */
class JoinedFileWriter {
  position = 0;
  frames = 0;
  audioBytes = 0;
  layout: XingFrameLayout | undefined;
  variableBitrate = false;
  private readonly toc = new XingTocBuilder();
  private bitrateIndex = -1;
  private unwritten = 0;

  /** `base`: where the audio starts in the file (after a tag). */
  constructor(
    private readonly file: FileHandle,
    private readonly base: number
  ) {}

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

  async write(runs: Uint8Array[]): Promise<void> {
    const bytes = runs.reduce((sum, run) => sum + run.length, 0);
    if (bytes !== this.unwritten) throw new Error(`the walker answered ${bytes} bytes of frames where it announced ${this.unwritten}`);
    if (bytes > 0) await this.file.writev(runs, this.base + this.position);
    this.position += bytes;
    this.audioBytes += bytes;
    this.unwritten = 0;
  }

  async finish(): Promise<'Xing' | 'Info'> {
    const kind = this.variableBitrate ? 'Xing' : 'Info';
    const frame = buildXingFrame(this.layout!, { kind, frames: this.frames, bytes: this.position, toc: this.toc.toc(this.position) });
    await this.file.write(frame, 0, frame.length, this.base);
    return kind;
  }
}

async function writeJoined(file: FileHandle, sources: readonly Mp3PartSource[], base: number): Promise<JoinedMp3> {
  const writer = new JoinedFileWriter(file, base);
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
      audioOffset: base + writer.position - audioLength,
      audioLength,
    });
  }
  const header = await writer.finish();
  return {
    frames: writer.frames,
    durationSeconds: secondsOf(writer.frames, stream!),
    bytes: base + writer.position,
    stream: stream!,
    header,
    parts,
  };
}

const secondsOf = (frames: number, stream: Mp3Stream) => (frames * stream.samplesPerFrame) / stream.sampleRate;
