/**
 * The audio frames of an MP3: where each one starts, found by the rules the plugin joins MP3s by
 * (server/src/audio/mp3-frames.ts, written again here: the emulator imports no plugin code). STT
 * uses them to recognise the emulator's own audio in a file that carries its frames without being
 * its file: one part cut out of a joined narration, bare or under a new Xing/Info header frame, or
 * the whole joined narration (stt/recognise.mjs).
 *
 * What describes only one file is not audio: ID3v2 tags at the start (one or several) and zero
 * padding after them, a Xing/Info/VBRI header frame first, and the tags after the last frame
 * (ID3v1 "TAG", APEv2 "APETAGEX", "LYRICSBEGIN", an appended ID3v2 "ID3"). The audio frames are
 * layer III frames of one stream (MPEG version, sample rate, channels), back to back; a last frame
 * cut short and one to three stray bytes at the very end are dropped, as decoders do. Anything
 * else (bytes that are neither a frame nor a known tag, a frame of another stream or layer, no
 * audio frame at all) is refused, as the plugin refuses to join it: the answer is then null.
 *
 * Pure and incremental: fed the file chunk by chunk, it keeps only a unit's first bytes (a header,
 * a tag's signature, the first frame's opening) between chunks, never a frame; frames are passed
 * over by their length. What it remembers is each frame's offset: 8 bytes a frame.
 */
import { createReadStream } from 'node:fs';
import { readFrameHeader } from './mp3.mjs';

/**
 * @typedef {object} Mp3AudioFrames
 * @property {number} frames        audio frames (a header frame not counted)
 * @property {Float64Array} offsets  frames + 1 byte offsets in the file: where each frame starts,
 *   then where the last one ends (the frames are back to back, so frame i is offsets[i]..offsets[i+1])
 * @property {number} sampleRate
 * @property {number} samplesPerFrame
 */

/** Tags found after the last frame: ID3v1, APEv2, Lyrics3, and an ID3v2 tag appended at the end. */
const TRAILING_TAGS = ['TAG', 'APETAGEX', 'LYRICSBEGIN', 'ID3'];
const LONGEST_TRAILING_TAG = Math.max(...TRAILING_TAGS.map((tag) => tag.length));
const ID3_HEADER_BYTES = 10;
/** The opening of a first frame that tells a header frame: VBRI's frame count ends 4 + 32 + 18 bytes in. */
const HEADER_FRAME_PROBE_BYTES = 4 + 32 + 18;
const EMPTY = Buffer.alloc(0);

/** @param {Buffer} bytes @param {number} offset @param {string} text */
const startsWith = (bytes, offset, text) =>
  offset + text.length <= bytes.length && [...text].every((char, i) => bytes[offset + i] === char.charCodeAt(0));

/**
 * A frame header as the plugin reads one: mp3.mjs's, with the reserved emphasis (10) refused too.
 * @param {Buffer} bytes @param {number} pos
 */
function frameHeader(bytes, pos) {
  const header = readFrameHeader(bytes, pos);
  return header && (bytes[pos + 3] & 0b11) !== 0b10 ? header : null;
}

/**
 * The whole length of the ID3v2 tag at `pos` (header, body, v2.4 footer); null when none starts
 * there, undefined when fewer than 10 bytes are there to tell, or a string when the bytes say "ID3"
 * but the header is not a valid one.
 * @param {Buffer} bytes @param {number} pos
 * @returns {number | null | undefined | string}
 */
function id3v2TagLength(bytes, pos) {
  const known = Math.min(bytes.length - pos, 3);
  for (let i = 0; i < known; i++) if (bytes[pos + i] !== 'ID3'.charCodeAt(i)) return null;
  if (bytes.length - pos < ID3_HEADER_BYTES) return undefined;
  const [major, revision, flags, ...size] = bytes.subarray(pos + 3, pos + ID3_HEADER_BYTES);
  if (major < 2 || major > 4 || revision === 0xff) return 'its ID3 tag has an unknown version';
  // The size is "syncsafe": 7 bits per byte, the high bit always clear.
  if (size.some((byte) => byte >= 0x80)) return 'its ID3 tag has a malformed size';
  const body = (size[0] << 21) | (size[1] << 14) | (size[2] << 7) | size[3];
  const footer = major === 4 && (flags & 0x10) !== 0 ? ID3_HEADER_BYTES : 0;
  return ID3_HEADER_BYTES + body + footer;
}

/**
 * Whether a first frame is a Xing/Info or VBRI header frame (the plugin's declaredFrameCount is not null).
 * @param {Buffer} frame  the frame's opening: min(its length, HEADER_FRAME_PROBE_BYTES) bytes
 * @param {1 | 2 | 2.5} version
 */
function isHeaderFrame(frame, version) {
  const mono = frame[3] >> 6 === 0b11;
  // The Xing tag follows the side information, whose size depends on the version and the channels.
  const xing = 4 + (version === 1 ? (mono ? 17 : 32) : mono ? 9 : 17);
  if (startsWith(frame, xing, 'Xing') || startsWith(frame, xing, 'Info')) return true;
  return startsWith(frame, 4 + 32, 'VBRI') && frame.length >= HEADER_FRAME_PROBE_BYTES;
}

export class Mp3FrameScanner {
  /** @type {'leading-tags' | 'before-audio' | 'frames' | 'done'} */
  #phase = 'leading-tags';
  /** Bytes still to pass over: an ID3v2 tag, or the rest of a frame. */
  #skip = 0;
  /** The bytes passed over are an audio frame's (counted already; uncounted should the file end inside it). */
  #skippingAudio = false;
  /** The start of a unit the last chunk held only part of (a few dozen bytes at most). */
  #carry = EMPTY;
  /** Bytes pushed so far. */
  #seen = 0;
  #firstFrameChecked = false;
  /** @type {{ version: number, sampleRate: number, channels: number, samplesPerFrame: number } | null} */
  #stream = null;
  #offsets = new Float64Array(1024);
  #frames = 0;
  /** Why the bytes are not an MP3's frames, once refused. @type {string | null} */
  refused = null;

  /** True once more bytes cannot change the answer (a trailing tag, or refused). */
  get finished() {
    return this.#phase === 'done';
  }

  /** @param {Buffer} chunk  the next bytes of the file (not kept: the caller may reuse its memory) */
  push(chunk) {
    if (this.#phase === 'done') return;
    const data = this.#carry.length > 0 ? Buffer.concat([this.#carry, chunk]) : chunk;
    const start = this.#seen - this.#carry.length;
    this.#seen += chunk.length;
    const used = this.#scan(data, start, false);
    this.#carry = this.finished ? EMPTY : Buffer.from(data.subarray(used));
  }

  /**
   * The file ended: its audio frames, or null when it is not an MP3 whose frames could be joined.
   * @returns {Mp3AudioFrames | null}
   */
  end() {
    if (this.#phase !== 'done') this.#scan(this.#carry, this.#seen - this.#carry.length, true);
    this.#carry = EMPTY;
    // A last frame cut short is dropped.
    if (this.#skip > 0 && this.#skippingAudio) this.#frames -= 1;
    if (this.refused !== null || !this.#stream) return null;
    if (this.#frames === 0) {
      this.refused = 'it holds no MPEG audio frame';
      return null;
    }
    const { sampleRate, samplesPerFrame } = this.#stream;
    return { frames: this.#frames, offsets: this.#offsets.subarray(0, this.#frames + 1), sampleRate, samplesPerFrame };
  }

  /**
   * Walks `data` (byte `start` of the file onwards); answers how many bytes it used (the rest is a
   * unit to complete with the next chunk). `final`: no byte follows.
   * @param {Buffer} data @param {number} start @param {boolean} final
   */
  #scan(data, start, final) {
    let pos = 0;
    for (;;) {
      if (this.#skip > 0) {
        const step = Math.min(this.#skip, data.length - pos);
        pos += step;
        this.#skip -= step;
        if (this.#skip > 0) return pos;
        continue;
      }
      if (this.#phase === 'done') return data.length;
      if (this.#phase === 'leading-tags') {
        const tag = id3v2TagLength(data, pos);
        if (tag === undefined && !final) return pos;
        if (typeof tag === 'string') return this.#refuse(tag);
        // Another ID3v2 tag may follow the first (some taggers add one rather than rewrite).
        if (typeof tag === 'number') {
          this.#skip = tag;
          this.#skippingAudio = false;
        } else this.#phase = 'before-audio';
        continue;
      }
      if (this.#phase === 'before-audio') {
        // Some taggers pad with zeros beyond the size they declare; decoders skip them.
        while (pos < data.length && data[pos] === 0) pos += 1;
        if (data.length - pos < 4) return pos;
        if (!frameHeader(data, pos)) return this.#refuse(`no MPEG audio frame starts where its audio should (byte ${start + pos})`);
        this.#phase = 'frames';
        continue;
      }
      // Frames, until the data runs out or something else starts.
      if (data.length - pos < 4) return pos;
      const header = frameHeader(data, pos);
      if (!header) {
        if (data.length - pos < LONGEST_TRAILING_TAG && !final) return pos;
        if (TRAILING_TAGS.some((tag) => startsWith(data, pos, tag))) {
          this.#phase = 'done';
          return data.length;
        }
        return this.#refuse(`bytes at ${start + pos} are neither an MPEG audio frame nor a known tag`);
      }
      const streamError = this.#checkStream(header, data[pos + 3]);
      if (streamError) return this.#refuse(`${streamError} (byte ${start + pos})`);
      if (!this.#firstFrameChecked) {
        const probe = Math.min(header.length, HEADER_FRAME_PROBE_BYTES);
        if (data.length - pos < probe) {
          if (!final) return pos;
          this.#phase = 'done'; // a first frame cut short: no audio
          return data.length;
        }
        this.#firstFrameChecked = true;
        if (isHeaderFrame(data.subarray(pos, pos + probe), header.version)) {
          this.#skip = header.length;
          this.#skippingAudio = false;
          continue;
        }
      }
      this.#addFrame(start + pos, header.length);
      this.#skip = header.length;
      this.#skippingAudio = true;
    }
  }

  /**
   * The first frame sets the stream (a layer III one); every later frame must share it.
   * @param {NonNullable<ReturnType<typeof readFrameHeader>>} header @param {number} headerByte3
   * @returns {string | null} why the frame does not fit
   */
  #checkStream(header, headerByte3) {
    const channels = headerByte3 >> 6 === 0b11 ? 1 : 2;
    if (!this.#stream) {
      if (header.layer !== 3) return `it is MPEG layer ${header.layer} audio, not MP3 (layer III)`;
      this.#stream = { version: header.version, sampleRate: header.sampleRate, channels, samplesPerFrame: header.samples };
      return null;
    }
    const stream = this.#stream;
    if (header.layer !== 3 || header.version !== stream.version || header.sampleRate !== stream.sampleRate || channels !== stream.channels)
      return 'a frame of another stream follows';
    return null;
  }

  /** @param {number} offset @param {number} length */
  #addFrame(offset, length) {
    if (this.#frames + 2 > this.#offsets.length) {
      const grown = new Float64Array(this.#offsets.length * 2);
      grown.set(this.#offsets);
      this.#offsets = grown;
    }
    this.#offsets[this.#frames] = offset;
    this.#frames += 1;
    this.#offsets[this.#frames] = offset + length;
  }

  /** @param {string} reason */
  #refuse(reason) {
    this.refused = reason;
    this.#phase = 'done';
    return 0;
  }
}

/**
 * The audio frames of an MP3 held in memory (one the emulator just made).
 * @param {Uint8Array} mp3 @returns {Mp3AudioFrames | null}
 */
export function mp3AudioFrames(mp3) {
  const scanner = new Mp3FrameScanner();
  scanner.push(Buffer.from(mp3.buffer, mp3.byteOffset, mp3.byteLength));
  return scanner.end();
}

/**
 * The audio frames of an MP3 file, read in 1 MB chunks (an upload of 50 MB is never held whole);
 * the reading stops at a trailing tag or at the first byte that is not an MP3's.
 * @param {string} path @returns {Promise<Mp3AudioFrames | null>}
 */
export async function mp3FileAudioFrames(path) {
  const scanner = new Mp3FrameScanner();
  const stream = createReadStream(path, { highWaterMark: 1 << 20 });
  try {
    for await (const chunk of stream) {
      scanner.push(chunk);
      if (scanner.finished) break;
    }
  } finally {
    stream.destroy();
  }
  return scanner.end();
}
