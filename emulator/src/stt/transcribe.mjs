/**
 * The emulator's "transcription". HONESTY RULE: the emulator is not a speech recogniser.
 *  - Audio it synthesized itself (found by SHA-256 of the bytes): the exact source sentences
 *    with their real timings.
 *  - A WAV file: where sound is (energy detection), each segment labelled "[speech]".
 *  - An MP3 it did not make: one segment spanning the file's duration (from frame headers; the
 *    emulator does not decode MP3), labelled "[untranscribed audio]".
 *  - Anything else: one zero-length segment labelled "[untranscribed audio]".
 * It never invents words.
 */
import { formatSrt } from '../speech/srt.mjs';
import { mp3FileDurationSec } from '../speech/mp3.mjs';
import { wavSoundSegments } from './energy.mjs';

export const SPEECH_LABEL = '[speech]';
export const UNTRANSCRIBED_LABEL = '[untranscribed audio]';

/** @typedef {'emulator-audio'|'wav-energy'|'mp3-duration'|'unknown-format'} TranscriptSource */
/** @typedef {{ source: TranscriptSource, segments: import('../speech/srt.mjs').Cue[], srt: string }} Transcript */

/**
 * @param {import('./upload.mjs').UploadedFile} file
 * @param {import('../speech/media.mjs').MediaStore} media
 * @returns {Promise<Transcript>}
 */
export async function transcribe(file, media) {
  const produced = media.lookupAudio(file.sha256);
  if (produced) return { source: 'emulator-audio', segments: produced.cues.map(roundCue), srt: produced.srt };

  const sound = await wavSoundSegments(file.path);
  if (sound)
    return transcript(
      'wav-energy',
      sound.map((s) => roundCue({ ...s, text: SPEECH_LABEL }))
    );

  const duration = await mp3FileDurationSec(file.path);
  if (duration !== null) return transcript('mp3-duration', [roundCue({ start: 0, end: duration, text: UNTRANSCRIBED_LABEL })]);

  return transcript('unknown-format', [{ start: 0, end: 0, text: UNTRANSCRIBED_LABEL }]);
}

/** @param {TranscriptSource} source @param {import('../speech/srt.mjs').Cue[]} segments @returns {Transcript} */
function transcript(source, segments) {
  return { source, segments, srt: formatSrt(segments) };
}

/** Millisecond precision, like the SRT. @param {import('../speech/srt.mjs').Cue} cue */
function roundCue({ start, end, text }) {
  return { start: Math.round(start * 1000) / 1000, end: Math.round(end * 1000) / 1000, text };
}
