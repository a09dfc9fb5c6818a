/**
 * The main thread's side of speech synthesis. eSpeak NG and the MP3 encoder are synchronous and take
 * hundreds of milliseconds per article; run on the main thread they held the HTTP event loop, so
 * the emulator accepted no request and delivered no callback while it synthesized. A real service
 * answers while it generates: here one long-lived worker thread (synth-worker.mjs) does the work
 * (one job at a time: each eSpeak instance owns tens of MB of WASM memory, and the machine has two
 * cores) and the main thread only awaits its answers.
 */
import { Worker } from 'node:worker_threads';

const WORKER_URL = new URL('./synth-worker.mjs', import.meta.url);

/**
 * @typedef {object} SynthesizedSpeech
 * @property {Buffer | null} mp3     null when the text produced no samples at all
 * @property {import('./srt.mjs').Cue[]} cues  one per sentence that produced audio, in seconds
 * @property {number} durationSec    PCM duration (the MP3 adds encoder padding of a few ms)
 * @property {string | null} sha256  of the MP3, computed in the worker (the media store's key)
 */

/**
 * @typedef {object} PendingJob
 * @property {(speech: SynthesizedSpeech) => void} succeed
 * @property {(error: unknown) => void} fail
 */

export class SpeechSynthesizer {
  /** @type {Worker | null} */
  #worker = null;
  /** @type {Map<number, PendingJob>} */
  #jobs = new Map();
  #nextId = 1;
  #closed = false;
  /** @type {string | null} */
  #cacheDir;

  /** @param {{ cacheDir?: string | null }} [options]  cacheDir: the speech cache's folder (`--speech-cache`), if any */
  constructor({ cacheDir = null } = {}) {
    this.#cacheDir = cacheDir;
  }

  /** Starts the worker and has it compile the 18 MB WASM module, so the first narration is not slower. */
  warmUp() {
    if (!this.#closed) this.#ensureWorker().postMessage({ type: 'warm-up' });
  }

  /**
   * Synthesizes sentences into one MP3 in the worker. Rejects with the worker's error message when
   * synthesis fails, and with `signal.reason` as soon as the signal aborts (the worker stops that
   * job before its next sentence).
   * @param {string[]} sentences
   * @param {string} espeakVoice
   * @param {{ gapMs: number, signal?: AbortSignal }} options
   * @returns {Promise<SynthesizedSpeech>}
   */
  synthesize(sentences, espeakVoice, { gapMs, signal }) {
    return new Promise((resolve, reject) => {
      if (this.#closed) return reject(new Error('The speech synthesizer is closed.'));
      if (signal?.aborted) return reject(signal.reason);
      const id = this.#nextId++;
      const cancel = new SharedArrayBuffer(Int32Array.BYTES_PER_ELEMENT);
      /** @param {() => void} settle */
      const finish = (settle) => {
        if (!this.#jobs.delete(id)) return;
        signal?.removeEventListener('abort', onAbort);
        if (this.#jobs.size === 0) this.#worker?.unref(); // an idle worker never keeps the process alive
        settle();
      };
      const onAbort = () => {
        Atomics.store(new Int32Array(cancel), 0, 1);
        finish(() => reject(signal?.reason));
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.#jobs.set(id, { succeed: (speech) => finish(() => resolve(speech)), fail: (error) => finish(() => reject(error)) });
      const worker = this.#ensureWorker();
      worker.ref();
      worker.postMessage({ type: 'synthesize', id, sentences, espeakVoice, gapMs, cancel });
    });
  }

  /** Fails what is pending and terminates the worker (the emulator's close). */
  async close() {
    this.#closed = true;
    const worker = this.#worker;
    this.#worker = null;
    this.#failAll(new Error('The speech synthesizer was closed.'));
    await worker?.terminate();
  }

  #ensureWorker() {
    if (this.#worker) return this.#worker;
    // No inherited node flags: the worker needs none, and some (--input-type, --eval) make it refuse to start.
    const worker = new Worker(WORKER_URL, { execArgv: [], workerData: { cacheDir: this.#cacheDir } });
    worker.unref();
    worker.on('message', (/** @type {import('./synth-worker.mjs').SynthesisReply} */ reply) => {
      const job = this.#jobs.get(reply.id);
      if (!job) return; // aborted meanwhile
      if (reply.ok) {
        const { mp3, cues, durationSec, sha256 } = reply;
        job.succeed({ mp3: mp3 && Buffer.from(mp3), cues, durationSec, sha256 });
      } else job.fail(new Error(reply.message));
    });
    // A crashed worker fails the jobs it had; the next synthesis starts a new one.
    const lose = (/** @type {Error} */ error) => {
      if (this.#worker !== worker) return;
      this.#worker = null;
      this.#failAll(error);
      void worker.terminate(); // after a messageerror it would still be running
    };
    worker.on('error', lose);
    worker.on('messageerror', lose);
    worker.on('exit', (code) => lose(new Error(`The speech synthesis worker stopped (exit code ${code}).`)));
    this.#worker = worker;
    return worker;
  }

  /** @param {Error} error */
  #failAll(error) {
    for (const job of [...this.#jobs.values()]) job.fail(error);
  }
}
