/** MP3 encoding (LAME in WASM) and frame-header parsing (for the duration of uploaded MP3s). */
import { open } from 'node:fs/promises';
import { createMp3Encoder } from 'wasm-media-encoders';

/** Samples handed to the encoder at a time. */
const BLOCK = 16384;

/**
 * One encoder a thread, configured anew for each MP3 (LAME in WASM, wasm-media-encoders): a fifth
 * of lamejs's CPU a second of audio, and none of the seconds lamejs spent warming up in each new
 * emulator process. Past its first await, encodeMp3 runs to its end without a pause, so two MP3s
 * never share the encoder's state.
 * @type {Promise<import('wasm-media-encoders').WasmMediaEncoder<'audio/mpeg'>> | undefined}
 */
let sharedEncoder;

/**
 * Encodes mono 16-bit PCM to a 48 kbps MP3 (MPEG 2 layer III at 22.05 kHz, no VBR header; it runs
 * in the synthesis worker, so it never holds the HTTP event loop).
 * @param {Int16Array} samples @param {number} sampleRate
 * @returns {Promise<Buffer>} backed by an ArrayBuffer of its own (never Node's shared pool), so it
 *   can be transferred to another thread
 */
export async function encodeMp3(samples, sampleRate) {
  sharedEncoder ??= createMp3Encoder();
  const encoder = await sharedEncoder;
  encoder.configure({ channels: 1, sampleRate, bitrate: 48 });
  /** @type {Uint8Array[]} */
  const parts = [];
  const block = new Float32Array(BLOCK);
  for (let start = 0; start < samples.length; start += BLOCK) {
    const length = Math.min(BLOCK, samples.length - start);
    for (let i = 0; i < length; i++) block[i] = samples[start + i] / 32768;
    // The encoder's output is a view into its memory, valid until its next call: copied at once.
    parts.push(Uint8Array.from(encoder.encode([block.subarray(0, length)])));
  }
  parts.push(Uint8Array.from(encoder.finalize()));
  const mp3 = Buffer.from(new ArrayBuffer(parts.reduce((total, part) => total + part.length, 0)));
  let offset = 0;
  for (const part of parts) {
    mp3.set(part, offset);
    offset += part.length;
  }
  return mp3;
}

const BITRATES_KBPS = {
  // [version][layer] tables; index 0 = free format, 15 = bad
  v1: {
    1: [0, 32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448],
    2: [0, 32, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320, 384],
    3: [0, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320],
  },
  v2: {
    1: [0, 32, 48, 56, 64, 80, 96, 112, 128, 144, 160, 176, 192, 224, 256],
    2: [0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160],
    3: [0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160],
  },
};
const SAMPLE_RATES = { 3: [44100, 48000, 32000], 2: [22050, 24000, 16000], 0: [11025, 12000, 8000] }; // by version bits

/**
 * Reads one MPEG audio frame header.
 * @param {Buffer} buf @param {number} pos
 * @returns {{ length: number, samples: number, sampleRate: number, version: 1 | 2 | 2.5, layer: number } | null}
 */
export function readFrameHeader(buf, pos) {
  if (pos + 4 > buf.length || buf[pos] !== 0xff || (buf[pos + 1] & 0xe0) !== 0xe0) return null;
  const versionBits = (buf[pos + 1] >> 3) & 3; // 3 = MPEG1, 2 = MPEG2, 0 = MPEG2.5
  const layer = 4 - ((buf[pos + 1] >> 1) & 3); // 1..3
  const bitrateIndex = buf[pos + 2] >> 4;
  const rateIndex = (buf[pos + 2] >> 2) & 3;
  const padding = (buf[pos + 2] >> 1) & 1;
  if (versionBits === 1 || layer === 4 || bitrateIndex === 0 || bitrateIndex === 15 || rateIndex === 3) return null;
  const v1 = versionBits === 3;
  const bitrate = (v1 ? BITRATES_KBPS.v1 : BITRATES_KBPS.v2)[/** @type {1|2|3} */ (layer)][bitrateIndex] * 1000;
  const sampleRate = SAMPLE_RATES[/** @type {0|2|3} */ (versionBits)][rateIndex];
  const samples = layer === 1 ? 384 : layer === 3 && !v1 ? 576 : 1152;
  const length =
    layer === 1 ? (Math.floor((12 * bitrate) / sampleRate) + padding) * 4 : Math.floor(((samples / 8) * bitrate) / sampleRate) + padding;
  return { length, samples, sampleRate, version: v1 ? 1 : versionBits === 2 ? 2 : 2.5, layer };
}

/**
 * Duration of an MP3 file by walking its frame headers (after an optional ID3v2 tag), reading
 * the file in blocks so a 50 MB upload is never held in memory. Returns null when the bytes do
 * not look like an MP3 (fewer than 3 consecutive frames).
 * @param {string} path
 * @returns {Promise<number | null>} seconds
 */
export async function mp3FileDurationSec(path) {
  const file = await open(path, 'r');
  try {
    const { size } = await file.stat();
    const block = Buffer.alloc(1 << 20);
    let blockStart = 0;
    let blockLength = (await file.read(block, 0, block.length, 0)).bytesRead;
    let pos = 0;
    if (blockLength >= 10 && block.toString('latin1', 0, 3) === 'ID3') {
      const tagSize = ((block[6] & 0x7f) << 21) | ((block[7] & 0x7f) << 14) | ((block[8] & 0x7f) << 7) | (block[9] & 0x7f);
      pos = 10 + tagSize + (block[5] & 0x10 ? 10 : 0); // footer flag adds 10 bytes
    }
    let frames = 0;
    let seconds = 0;
    while (pos + 4 <= size) {
      if (pos + 4 > blockStart + blockLength) {
        blockStart = pos;
        blockLength = (await file.read(block, 0, block.length, pos)).bytesRead;
      }
      const frame = readFrameHeader(block.subarray(0, blockLength), pos - blockStart);
      if (!frame || frame.length <= 0) break; // trailing tag or junk: stop counting
      frames++;
      seconds += frame.samples / frame.sampleRate;
      pos += frame.length;
    }
    return frames >= 3 ? seconds : null;
  } finally {
    await file.close();
  }
}
