/**
 * The emulator's "transcription". HONESTY RULE: the emulator is not a speech recogniser.
 *  - Audio it synthesized itself (found by SHA-256 of the bytes): the exact source sentences
 *    with their real timings.
 *  - An MP3 whose audio frames are exactly those of one MP3 it synthesized (the same frames under
 *    other tags or a new Xing/Info header frame: a part cut out of a joined file), or of several
 *    back to back (a joined file): the same sentences, each part's times shifted by the duration
 *    of the frames before it (recognise.mjs).
 *  - A WAV file: where sound is (energy detection), each segment labelled "[speech]".
 *  - An MP3 it did not make: one segment spanning the file's duration (from frame headers; the
 *    emulator does not decode MP3), labelled "[untranscribed audio]".
 *  - Anything else: one zero-length segment labelled "[untranscribed audio]".
 * It never invents words.
 */
import { formatSrt } from '../speech/srt.mjs';
import { mp3FileDurationSec } from '../speech/mp3.mjs';
import { wavSoundSegments } from './energy.mjs';
import { findProducedFrames } from './recognise.mjs';

export const SPEECH_LABEL = '[speech]';
export const UNTRANSCRIBED_LABEL = '[untranscribed audio]';

/**
 * emulator-audio: the file is one the emulator made; emulator-audio-frames: its audio frames are one
 * such file's; emulator-audio-joined: they are several such files' frames back to back.
 * @typedef {'emulator-audio'|'emulator-audio-frames'|'emulator-audio-joined'|'wav-energy'|'mp3-duration'|'unknown-format'} TranscriptSource
 */
/**
 * @typedef {object} Transcript
 * @property {TranscriptSource} source
 * @property {import('../speech/srt.mjs').Cue[]} segments
 * @property {string} srt
 * @property {string[]} audio  the SHA-256 of each of the emulator's MP3s the upload is or carries, in order
 */

/**
 * @param {import('./upload.mjs').UploadedFile} file
 * @param {import('../speech/media.mjs').MediaStore} media
 * @returns {Promise<Transcript>}
 */
export async function transcribe(file, media) {
  const produced = media.lookupAudio(file.sha256);
  if (produced) return { source: 'emulator-audio', segments: produced.cues.map(roundCue), srt: produced.srt, audio: [produced.sha256] };

  const runs = await findProducedFrames(file.path, media);
  if (runs?.length === 1) {
    const [{ audio }] = runs;
    return { source: 'emulator-audio-frames', segments: audio.cues.map(roundCue), srt: audio.srt, audio: [audio.sha256] };
  }
  if (runs) {
    const cues = runs.flatMap(({ audio, startSec }) =>
      audio.cues.map((cue) => ({ ...cue, start: cue.start + startSec, end: cue.end + startSec }))
    );
    return {
      ...transcript('emulator-audio-joined', cues.map(roundCue)),
      srt: formatSrt(cues),
      audio: runs.map(({ audio }) => audio.sha256),
    };
  }

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
  return { source, segments, srt: formatSrt(segments), audio: [] };
}

/** Millisecond precision, like the SRT. @param {import('../speech/srt.mjs').Cue} cue */
function roundCue({ start, end, text }) {
  return { start: Math.round(start * 1000) / 1000, end: Math.round(end * 1000) / 1000, text };
}
