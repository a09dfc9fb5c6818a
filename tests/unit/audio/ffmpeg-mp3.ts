import { execFileSync, spawnSync } from 'child_process';
import path from 'path';
import { parseMpegFrameHeader } from '../../../server/src/audio/mp3-sniff';

/**
 * MP3s as real encoders write them, and what real decoders make of them: ffmpeg (Debian's, installed
 * by .ci/run) encodes with LAME, writing an ID3v2 tag and a LAME Info/Xing frame by default; ffprobe
 * counts the audio frames; ffmpeg decodes a file end to end. Also an MP3 read here, independently of
 * the code under test: its frames walked header to header, and its Xing/Info tag read field by field.
 */

export interface EncodeOptions {
  /** An ffmpeg lavfi source, e.g. `sine=frequency=440:duration=2`. */
  source: string;
  sampleRate?: number;
  channels?: 1 | 2;
  /** Constant bitrate (`-b:a`), e.g. '128k'; or a LAME VBR quality (`-q:a`, 0 best to 9). */
  bitrate?: string;
  vbrQuality?: number;
  /** Muxer options: false for no ID3v2 tag, no Xing/Info frame; true for an ID3v1 tag at the end. */
  id3v2?: boolean;
  xing?: boolean;
  id3v1?: boolean;
}

/** Runs ffmpeg or ffprobe; a machine without them is told what to install rather than `ENOENT`. */
function run(tool: 'ffmpeg' | 'ffprobe', args: string[]): string {
  try {
    return execFileSync(tool, args, { encoding: 'utf8' });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT')
      throw new Error(`${tool} is needed: apt-get install ffmpeg (bash .ci/run does)`, { cause: error });
    throw error;
  }
}

/** Encodes `options.source` to `dir/name` with ffmpeg's LAME encoder; answers the file's path. */
export function encodeMp3(dir: string, name: string, options: EncodeOptions): string {
  const file = path.join(dir, name);
  const rate = options.bitrate === undefined ? ['-q:a', String(options.vbrQuality ?? 4)] : ['-b:a', options.bitrate];
  run('ffmpeg', [
    ...['-v', 'error', '-y', '-f', 'lavfi', '-i', options.source],
    ...['-ar', String(options.sampleRate ?? 44100), '-ac', String(options.channels ?? 1), '-c:a', 'libmp3lame', ...rate],
    ...['-id3v2_version', options.id3v2 === false ? '0' : '4', '-write_xing', options.xing === false ? '0' : '1'],
    ...['-write_id3v1', options.id3v1 ? '1' : '0', file],
  ]);
  return file;
}

/** What ffprobe reads: the audio frames it demuxes (the header frame is not one) and the duration it reports. */
export function probe(file: string): { frames: number; durationSeconds: number } {
  const output = run('ffprobe', [
    ...['-v', 'error', '-count_packets', '-select_streams', 'a:0'],
    ...['-show_entries', 'stream=nb_read_packets,duration', '-of', 'json', file],
  ]);
  const stream = JSON.parse(output).streams[0];
  return { frames: Number(stream.nb_read_packets), durationSeconds: Number(stream.duration) };
}

/** What ffmpeg says decoding the whole file (from `seekSeconds` when given): empty when it found nothing wrong. */
export function decodeErrors(file: string, seekSeconds?: number): string {
  const seek = seekSeconds === undefined ? [] : ['-ss', String(seekSeconds)];
  const decoding = spawnSync('ffmpeg', ['-v', 'error', ...seek, '-i', file, '-f', 'null', '-'], { encoding: 'utf8' });
  if (decoding.error) throw decoding.error;
  if (decoding.status !== 0) return `ffmpeg exited with ${decoding.status}: ${decoding.stderr}`;
  return decoding.stderr;
}

export interface WalkedFrame {
  offset: number;
  length: number;
  bitrateKbps: number;
}

/** The MPEG frames of an MP3 after its ID3v2 tag (if any) and zero padding, until something else starts. */
export function walkFrames(mp3: Uint8Array): WalkedFrame[] {
  let at = 0;
  if (mp3[0] === 0x49 && mp3[1] === 0x44 && mp3[2] === 0x33) {
    at = 10 + ((mp3[6]! << 21) | (mp3[7]! << 14) | (mp3[8]! << 7) | mp3[9]!) + (mp3[5]! & 0x10 ? 10 : 0);
  }
  while (mp3[at] === 0) at += 1;
  const frames: WalkedFrame[] = [];
  for (
    let header = parseMpegFrameHeader(mp3, at);
    header && at + header.frameLength <= mp3.length;
    header = parseMpegFrameHeader(mp3, at)
  ) {
    frames.push({ offset: at, length: header.frameLength, bitrateKbps: header.bitrateKbps });
    at += header.frameLength;
  }
  return frames;
}

export interface XingFields {
  kind: string;
  flags: number;
  frames: number;
  bytes: number;
  toc: number[];
}

/** The Xing/Info tag of the layer III frame at `offset`, read field by field; null when there is none. */
export function readXing(mp3: Uint8Array, offset: number): XingFields | null {
  const mpeg1 = ((mp3[offset + 1]! >> 3) & 0b11) === 0b11;
  const mono = mp3[offset + 3]! >> 6 === 0b11;
  const at = offset + 4 + (mpeg1 ? (mono ? 17 : 32) : mono ? 9 : 17);
  const kind = Buffer.from(mp3.subarray(at, at + 4)).toString('latin1');
  if (kind !== 'Xing' && kind !== 'Info') return null;
  const view = new DataView(mp3.buffer, mp3.byteOffset, mp3.byteLength);
  const flags = view.getUint32(at + 4);
  // The fields present follow one another in flag order: frames, bytes, TOC.
  let field = at + 8;
  const next = (size: number) => ((field += size), field - size);
  const frames = flags & 1 ? view.getUint32(next(4)) : NaN;
  const bytes = flags & 2 ? view.getUint32(next(4)) : NaN;
  const toc = flags & 4 ? [...mp3.subarray(next(100), field)] : [];
  return { kind, flags, frames, bytes, toc };
}

/** The TOC a file's frames call for, every offset known: entry i at the frame heard at i% of the duration. */
export function exactToc(frames: readonly WalkedFrame[], fileBytes: number): number[] {
  return Array.from({ length: 100 }, (_, i) =>
    Math.min(255, Math.floor((256 * frames[Math.floor((i * frames.length) / 100)]!.offset) / fileBytes))
  );
}

/** The bytes of these frames, one after another. */
export function frameBytes(mp3: Uint8Array, frames: readonly WalkedFrame[]): Buffer {
  return Buffer.concat(frames.map((frame) => mp3.subarray(frame.offset, frame.offset + frame.length)));
}
