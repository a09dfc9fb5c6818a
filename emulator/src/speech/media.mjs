/**
 * In-memory storage of everything the emulator produced: narration files served under /media/,
 * and a registry of every MP3 it synthesized (narration and TTS), keyed by the SHA-256 of the
 * bytes and by the SHA-256 of its audio frames alone (mp3-frames.mjs), so STT can return the true
 * sentences and timings for audio the emulator made itself, whole or carried by another MP3 file.
 * Everything lives until reset/close: the emulator is for demos and tests, not for volume.
 */
import { createHash, randomBytes } from 'node:crypto';
import { mp3AudioFrames } from './mp3-frames.mjs';
import { formatSrt } from './srt.mjs';

export const MEDIA_TYPES = {
  mp3: 'audio/mpeg',
  srt: 'application/x-subrip; charset=utf-8',
};

/** @param {Buffer} bytes */
export const sha256Hex = (bytes) => createHash('sha256').update(bytes).digest('hex');

/**
 * @typedef {object} ProducedAudio
 * @property {import('./srt.mjs').Cue[]} cues
 * @property {string} srt
 * @property {number} durationSec
 * @property {'narration'|'tts'} source
 * @property {string} voiceId
 * @property {string} sha256   of the MP3 file
 * @property {number | null} frames  its audio frames (null: none found, never for the emulator's own MP3s)
 */
/** @typedef {Omit<ProducedAudio, 'srt' | 'sha256' | 'frames'>} ProducedAudioInfo */

export class MediaStore {
  constructor() {
    /** @type {Map<string, { bytes: Buffer, contentType: string }>} file name -> content */
    this.files = new Map();
    /** @type {Map<string, ProducedAudio>} sha256 of an MP3 -> what it says */
    this.produced = new Map();
    /** @type {Map<string, ProducedAudio>} sha256 of an MP3's audio frames alone -> what they say */
    this.producedFrames = new Map();
    /**
     * @type {Map<string, Set<number>>} sha256 of a registered MP3's first audio frame -> the frame counts
     *   of the MP3s that open with it: the runs to try where a joined file has that frame
     */
    this.runStarts = new Map();
  }

  /**
   * Remembers a synthesized MP3 so STT can recognise it later, by its bytes and by its audio frames.
   * The emulator's MP3s are bare frames (no tag, no header frame), so the frames' hash is the
   * file's and costs only the walk over the frame headers.
   * @param {Buffer} mp3 @param {ProducedAudioInfo} info
   * @param {string} [sha256] of the MP3, when the synthesis worker already computed it
   * @returns {ProducedAudio}
   */
  registerAudio(mp3, info, sha256 = sha256Hex(mp3)) {
    const audio = mp3AudioFrames(mp3);
    /** @type {ProducedAudio} */
    const produced = { ...info, srt: formatSrt(info.cues), sha256, frames: audio?.frames ?? null };
    this.produced.set(sha256, produced);
    if (audio) {
      const from = audio.offsets[0];
      const to = audio.offsets[audio.frames];
      this.producedFrames.set(from === 0 && to === mp3.length ? sha256 : sha256Hex(mp3.subarray(from, to)), produced);
      const opening = sha256Hex(mp3.subarray(from, audio.offsets[1]));
      const counts = this.runStarts.get(opening) ?? new Set();
      this.runStarts.set(opening, counts.add(audio.frames));
    }
    return produced;
  }

  /** @param {string} sha256 of a whole file @returns {ProducedAudio | undefined} */
  lookupAudio(sha256) {
    return this.produced.get(sha256);
  }

  /** @param {string} sha256 of a run of audio frames @returns {ProducedAudio | undefined} */
  lookupFrames(sha256) {
    return this.producedFrames.get(sha256);
  }

  /**
   * Publishes a narration (MP3 + SRT under one random id).
   * @param {Buffer} mp3 @param {Omit<ProducedAudioInfo, 'source'>} info
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
