/**
 * Checks a download's body while it streams: the size cap, and that it is an MP3 or an SRT. The
 * duration is read on the way: a second pass over a long file cost more in garbage collection than reading.
 */
import { Transform, type TransformCallback } from 'stream';
import { TextDecoder } from 'util';
import { Mp3DurationReader, Mp3Sniffer, type Mp3Verdict } from '../audio';
import { DownloadRefusedError, formatBytes, tooLarge } from './refusal';

export type DownloadKind = 'mp3' | 'srt';

/** Enough to recognise an SRT; Mp3Sniffer reads past the ID3 tag on its own. */
const HEAD_BYTES = 4096;

export class BodyInspector extends Transform {
  bytes = 0;
  private readonly head: Buffer[] = [];
  private headBytes = 0;
  private checked = false;
  /** A fatal decoder fed chunk by chunk checks UTF-8 without keeping the text. */
  private readonly utf8: TextDecoder | undefined;
  /** How far to read depends on the ID3 tag's size, so it is fed every chunk until it can tell. */
  private readonly mp3: Mp3Sniffer | undefined;
  private readonly duration: Mp3DurationReader | undefined;

  constructor(
    private readonly kind: DownloadKind,
    private readonly maxBytes: number,
    private readonly origin: string
  ) {
    super();
    this.utf8 = kind === 'srt' ? new TextDecoder('utf-8', { fatal: true }) : undefined;
    this.mp3 = kind === 'mp3' ? new Mp3Sniffer(maxBytes) : undefined;
    this.duration = kind === 'mp3' ? new Mp3DurationReader() : undefined;
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    this.bytes += chunk.length;
    if (this.bytes > this.maxBytes) return callback(tooLarge(this.origin, this.maxBytes));
    if (this.utf8) {
      try {
        this.utf8.decode(chunk, { stream: true });
      } catch {
        return callback(this.badContent());
      }
    }
    if (this.duration && !this.duration.finished) this.duration.push(chunk);
    if (!this.checked) {
      const problem = this.mp3 ? this.judgeMp3(this.mp3.push(chunk)) : this.pushSrtHead(chunk);
      if (problem) return callback(problem);
    }
    callback(null, chunk);
  }

  override _flush(callback: TransformCallback): void {
    if (this.utf8) {
      try {
        this.utf8.decode();
      } catch {
        return callback(this.badContent());
      }
    }
    if (this.checked) return callback(null);
    callback((this.mp3 ? this.judgeMp3(this.mp3.end()) : this.checkSrtHead()) ?? null);
  }

  /** Once the body ended; undefined for an SRT. */
  durationSeconds(): number | null | undefined {
    return this.duration?.end();
  }

  private judgeMp3(verdict: Mp3Verdict): DownloadRefusedError | undefined {
    if (verdict.kind === 'need-more') return undefined;
    this.checked = true;
    if (verdict.kind === 'mp3') return undefined;
    if (verdict.kind === 'too-large') {
      return new DownloadRefusedError(
        'TOO_LARGE',
        `The file from ${this.origin} is larger than the ${formatBytes(this.maxBytes)} limit: its ID3 tag alone claims ${formatBytes(verdict.tagBytes)}.`
      );
    }
    return this.badContent(verdict.reason);
  }

  private pushSrtHead(chunk: Buffer): DownloadRefusedError | undefined {
    this.head.push(chunk);
    this.headBytes += chunk.length;
    return this.headBytes >= HEAD_BYTES ? this.checkSrtHead() : undefined;
  }

  private checkSrtHead(): DownloadRefusedError | undefined {
    this.checked = true;
    const head = Buffer.concat(this.head);
    this.head.length = 0;
    return startsWithSrtCue(head) ? undefined : this.badContent();
  }

  private badContent(reason?: string): DownloadRefusedError {
    const what = this.kind === 'mp3' ? 'an MP3 audio file' : 'an SRT subtitle file';
    return new DownloadRefusedError('BAD_CONTENT', `The file from ${this.origin} is not ${what}${reason ? `: ${reason}` : ''}.`);
  }
}

const SRT_TIMING = /^\d{1,3}:\d{2}:\d{2}[,.]\d{3}\s*-->\s*\d{1,3}:\d{2}:\d{2}[,.]\d{3}/;

export function startsWithSrtCue(head: Buffer): boolean {
  const text = new TextDecoder('utf-8').decode(head).replace(/^\uFEFF/, '');
  const lines = text.replace(/\r\n?/g, '\n').split('\n');
  let index = 0;
  while (index < lines.length && lines[index]!.trim() === '') index += 1;
  const counter = lines[index]?.trim() ?? '';
  const timing = lines[index + 1]?.trim() ?? '';
  return /^\d+$/.test(counter) && SRT_TIMING.test(timing);
}
