/**
 * The synthesis worker thread (node:worker_threads): eSpeak NG per sentence, PCM concatenation,
 * MP3 encoding and the MP3's SHA-256, off the emulator's main thread, which keeps HTTP, state,
 * timers and callbacks. Jobs run one at a time, in arrival order (one eSpeak instance at a time).
 *
 * Started with workerData { cacheDir }: the speech cache's folder, or null (synth.mjs).
 * Messages in:  { type: 'warm-up' }  compiles the WASM module ahead of the first job
 *               { type: 'synthesize', id, sentences, espeakVoice, gapMs, cancel }
 *                 cancel: SharedArrayBuffer of one Int32; the main thread stores 1 to stop the
 *                 job before its next sentence (read with Atomics, so no message has to get through)
 * Messages out: { id, ok: true, mp3: ArrayBuffer | null (transferred), cues, durationSec, sha256 }
 *               { id, ok: false, message }   synthesis failed or was cancelled (the main thread
 *                 has already settled a cancelled job and drops its answer)
 */
import { parentPort, workerData } from 'node:worker_threads';
import { compileSynthesizer, synthesizeSpeech } from './synth.mjs';
import { sha256Hex } from './media.mjs';

/**
 * @typedef {object} SynthesisJob
 * @property {'synthesize'} type
 * @property {number} id
 * @property {string[]} sentences
 * @property {string} espeakVoice
 * @property {number} gapMs
 * @property {SharedArrayBuffer} cancel
 */

/**
 * @typedef {{ id: number, ok: true, mp3: ArrayBuffer | null, cues: import('./srt.mjs').Cue[], durationSec: number, sha256: string | null }
 *   | { id: number, ok: false, message: string }} SynthesisReply
 */

// eSpeak's file system throws an ErrnoError for each path it creates as it starts, once a sentence:
// their stack traces took a tenth of a synthesis, and nothing reads them.
Error.stackTraceLimit = 0;

const port = parentPort;
if (!port) throw new Error('synth-worker.mjs runs as a worker thread (see synthesizer.mjs).');

/** @type {Promise<void>} */
let queue = Promise.resolve();

port.on('message', (/** @type {{ type: 'warm-up' } | SynthesisJob} */ message) => {
  if (message.type === 'warm-up') {
    compileSynthesizer().catch(() => undefined); // a real failure surfaces on the first job
    return;
  }
  queue = queue.then(() => runJob(message));
});

/** @param {SynthesisJob} job */
async function runJob({ id, sentences, espeakVoice, gapMs, cancel }) {
  const cancelled = new Int32Array(cancel);
  try {
    const speech = await synthesizeSpeech(sentences, espeakVoice, {
      gapMs,
      shouldStop: () => Atomics.load(cancelled, 0) !== 0,
      cacheDir: workerData?.cacheDir ?? null,
    });
    const { mp3 } = speech;
    const sha256 = mp3 && sha256Hex(mp3); // before the transfer detaches the bytes
    const bytes = mp3 && transferableBytes(mp3);
    /** @type {SynthesisReply} */
    const reply = { id, ok: true, mp3: bytes, cues: speech.cues, durationSec: speech.durationSec, sha256 };
    port?.postMessage(reply, bytes ? [bytes] : []);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    port?.postMessage(/** @type {SynthesisReply} */ ({ id, ok: false, message }));
  }
}

/**
 * The ArrayBuffer to transfer: the MP3's own (encodeMp3 allocates one per MP3), or a copy should
 * the bytes ever be a view into a larger or shared buffer.
 * @param {Uint8Array} bytes @returns {ArrayBuffer}
 */
function transferableBytes(bytes) {
  const { buffer } = bytes;
  if (buffer instanceof ArrayBuffer && bytes.byteOffset === 0 && bytes.byteLength === buffer.byteLength) return buffer;
  return new Uint8Array(bytes).buffer;
}
