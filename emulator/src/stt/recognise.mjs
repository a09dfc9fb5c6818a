/**
 * Finds the emulator's own audio in an uploaded MP3 that is not one of its files: by the audio
 * frames (speech/mp3-frames.mjs), whose bytes a client copies unchanged when it cuts a part out of
 * a joined narration, wraps it in a new Xing/Info header frame, or joins several parts into one.
 *
 * The upload's frames are covered by runs, each the whole frames of one registered MP3. From frame
 * i, the candidates are the registered MP3s that open with frame i's bytes (the media store indexes
 * them by their first frame); for each candidate's frame count c, the SHA-256 of frames i..i+c is
 * looked up (one read from frame i, the hash copied at each candidate's end). A run found, the
 * search goes on after it, longer runs first; a frame from which no cover exists is remembered, so
 * each frame is a start at most once. For a joined narration that is one read of the file, plus
 * the length of any other registered MP3 that opens with the same frame as a part (one that starts
 * with the same words). A single run covering every frame is the plain case: one part, bare or wrapped.
 */
import { createHash } from 'node:crypto';
import { open } from 'node:fs/promises';
import { mp3FileAudioFrames } from '../speech/mp3-frames.mjs';

/** How much of the upload is read at a time. */
const READ_BYTES = 1 << 20;

/**
 * @typedef {object} RecognisedRun
 * @property {import('../speech/media.mjs').ProducedAudio} audio
 * @property {number} startSec  where its frames start in the upload: the duration of the frames before it, exactly
 */

/**
 * The registered MP3s whose audio frames, back to back, are exactly the upload's audio frames; null
 * when the upload is not an MP3 or its frames are not (all) the emulator's.
 * @param {string} path  the upload, on disk
 * @param {import('../speech/media.mjs').MediaStore} media
 * @returns {Promise<RecognisedRun[] | null>}
 */
export async function findProducedFrames(path, media) {
  if (media.runStarts.size === 0) return null;
  const found = await mp3FileAudioFrames(path);
  if (!found) return null;
  const { frames, offsets } = found;
  const file = await open(path, 'r');
  const buffer = Buffer.allocUnsafe(Math.min(READ_BYTES, offsets[frames] - offsets[0]));
  /** Frames from which no cover of the rest exists. */
  const deadEnds = new Set();

  /**
   * SHA-256 digests of the bytes from `from` to each of `ends` (ascending), in one read.
   * @param {number} from @param {number[]} ends @returns {Promise<string[]>}
   */
  async function digestsAt(from, ends) {
    /** @type {string[]} */
    const digests = [];
    const hash = createHash('sha256');
    const last = ends[ends.length - 1] ?? from;
    for (let position = from; position < last; ) {
      const { bytesRead } = await file.read(buffer, 0, Math.min(buffer.length, last - position), position);
      if (bytesRead === 0) throw new Error(`${path} ended at byte ${position}, before ${last}`);
      let used = 0;
      while (digests.length < ends.length && ends[digests.length] <= position + bytesRead) {
        const end = ends[digests.length] - position;
        hash.update(buffer.subarray(used, end));
        used = end;
        digests.push(hash.copy().digest('hex'));
      }
      hash.update(buffer.subarray(used, bytesRead));
      position += bytesRead;
    }
    return digests;
  }

  /** @param {number} first @returns {Promise<Array<{ audio: import('../speech/media.mjs').ProducedAudio, first: number }> | null>} */
  async function cover(first) {
    if (first === frames) return [];
    if (deadEnds.has(first)) return null;
    const [opening] = await digestsAt(offsets[first], [offsets[first + 1]]);
    const counts = [...(media.runStarts.get(opening) ?? [])].filter((count) => first + count <= frames).sort((a, b) => a - b);
    const digests = await digestsAt(
      offsets[first],
      counts.map((count) => offsets[first + count])
    );
    for (let i = counts.length - 1; i >= 0; i--) {
      const audio = media.lookupFrames(digests[i]);
      if (audio?.frames !== counts[i]) continue;
      const rest = await cover(first + counts[i]);
      if (rest) return [{ audio, first }, ...rest];
    }
    deadEnds.add(first);
    return null;
  }

  try {
    const runs = await cover(0);
    return runs && runs.map(({ audio, first }) => ({ audio, startSec: (first * found.samplesPerFrame) / found.sampleRate }));
  } finally {
    await file.close();
  }
}
