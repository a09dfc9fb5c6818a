/**
 * In-memory storage of everything the emulator produced: narration files served under /media/,
 * and a registry of every MP3 it synthesized (narration and TTS), keyed by the SHA-256 of the
 * bytes, so STT can return the true sentences and timings for audio the emulator made itself.
 * Everything lives until reset/close: the emulator is for demos and tests, not for volume.
 */
import { createHash, randomBytes } from 'node:crypto';
import { formatSrt } from './srt.mjs';

export const MEDIA_TYPES = {
  mp3: 'audio/mpeg',
  srt: 'application/x-subrip; charset=utf-8',
};

/** @param {Buffer} bytes */
export const sha256Hex = (bytes) => createHash('sha256').update(bytes).digest('hex');

/** @typedef {{ cues: import('./srt.mjs').Cue[], srt: string, durationSec: number, source: 'narration'|'tts', voiceId: string }} ProducedAudio */

export class MediaStore {
  constructor() {
    /** @type {Map<string, { bytes: Buffer, contentType: string }>} file name -> content */
    this.files = new Map();
    /** @type {Map<string, ProducedAudio>} sha256 of an MP3 -> what it says */
    this.produced = new Map();
  }

  /**
   * Remembers a synthesized MP3 so STT can recognise it later.
   * @param {Buffer} mp3 @param {Omit<ProducedAudio, 'srt'>} info
   * @param {string} [sha256] of the MP3, when the synthesis worker already computed it
   * @returns {ProducedAudio}
   */
  registerAudio(mp3, info, sha256 = sha256Hex(mp3)) {
    const produced = { ...info, srt: formatSrt(info.cues) };
    this.produced.set(sha256, produced);
    return produced;
  }

  /** @param {string} sha256 @returns {ProducedAudio | undefined} */
  lookupAudio(sha256) {
    return this.produced.get(sha256);
  }

  /**
   * Publishes a narration (MP3 + SRT under one random id).
   * @param {Buffer} mp3 @param {Omit<ProducedAudio, 'srt'|'source'>} info
   * @param {string} [sha256] of the MP3, when the synthesis worker already computed it
   * @returns {{ id: string, mp3Name: string, srtName: string }}
   */
  publishNarration(mp3, info, sha256) {
    const { srt } = this.registerAudio(mp3, { ...info, source: 'narration' }, sha256);
    const id = randomBytes(12).toString('hex');
    this.files.set(`${id}.mp3`, { bytes: mp3, contentType: MEDIA_TYPES.mp3 });
    this.files.set(`${id}.srt`, { bytes: Buffer.from(srt, 'utf8'), contentType: MEDIA_TYPES.srt });
    return { id, mp3Name: `${id}.mp3`, srtName: `${id}.srt` };
  }

  /** @param {string} name e.g. "ab12….mp3" */
  get(name) {
    return this.files.get(name);
  }
}
