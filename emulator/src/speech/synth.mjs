/**
 * Real speech: eSpeak NG (WASM, from npm) per sentence, then one MP3 (LAME in WASM). Synthesizing
 * sentence by sentence is what makes the SRT exact: every cue starts where its sentence's
 * samples start in the concatenated PCM and lasts samples / sampleRate seconds.
 *
 * Everything here is CPU-bound and runs in the synthesis worker (synth-worker.mjs), never on the
 * emulator's main thread; synthesizer.mjs is the main thread's side.
 */
import { createHash } from 'node:crypto';
import { mkdir, readFile, rename, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import ESpeakNg from 'espeak-ng';
import { decodePcm16Mono } from './wav.mjs';
import { encodeMp3 } from './mp3.mjs';
import { VOICES } from './voices.mjs';

/** @type {Promise<WebAssembly.Module> | undefined} */
let compiledWasm;
/** The 18 MB module is compiled once; each synthesis only instantiates it. */
export function compileSynthesizer() {
  compiledWasm ??= readFile(new URL('espeak-ng.wasm', import.meta.resolve('espeak-ng'))).then((bytes) => WebAssembly.compile(bytes));
  return compiledWasm;
}

/**
 * Synthesizes one sentence. The text goes through a file in eSpeak's virtual FS, not argv,
 * so a sentence starting with "-" is never taken for an option. Callers run one synthesis at a
 * time (the worker queues its jobs): each eSpeak instance owns tens of MB of WASM memory.
 * @param {string} sentence @param {string} espeakVoice
 * @returns {Promise<{ samples: Int16Array, sampleRate: number }>}
 */
async function synthesizeSentence(sentence, espeakVoice) {
  const wasm = await compileSynthesizer();
  /** @type {number | null} */
  let exitStatus = null;
  const instance = await new Promise((resolve, reject) => {
    ESpeakNg({
      arguments: ['-v', espeakVoice, '-w', 'out.wav', '-f', 'in.txt'],
      print() {},
      printErr() {},
      preRun: [(/** @type {any} */ m) => m.FS.writeFile('in.txt', sentence)],
      // Emscripten's default quit handler sets process.exitCode: keep the host process clean.
      quit(/** @type {number} */ status, /** @type {unknown} */ toThrow) {
        exitStatus = status;
        throw toThrow;
      },
      instantiateWasm(/** @type {WebAssembly.Imports} */ imports, /** @type {Function} */ done) {
        const env = /** @type {Record<string, Function>} */ (imports.env);
        const loadEmbeddedFiles = env._emscripten_fs_load_embedded_files;
        /** @type {WebAssembly.Memory | undefined} */
        let memory;
        env._emscripten_fs_load_embedded_files = (/** @type {number} */ table) => {
          if (memory) keepEmbeddedFiles(memory, table, isVoiceData);
          return loadEmbeddedFiles(table);
        };
        WebAssembly.instantiate(wasm, imports)
          .then((inst) => {
            memory = /** @type {WebAssembly.Memory} */ (inst.exports.memory);
            done(inst, wasm);
          })
          .catch(reject);
        return {};
      },
    }).then(resolve, reject);
  });
  if (exitStatus !== 0) throw new Error(`espeak-ng exited with status ${exitStatus}`);
  return decodePcm16Mono(instance.FS.readFile('out.wav'));
}

/** The eSpeak languages and variants of the emulator's voices ('en-us+f3': en, f3). */
const VOICE_LANGUAGES = new Set(VOICES.map((voice) => voice.espeakVoice.split(/[-+]/)[0]));
const VOICE_VARIANTS = new Set(VOICES.flatMap((voice) => voice.espeakVoice.split('+').slice(1)));

/**
 * Whether eSpeak may read this data file for the emulator's voices: the phoneme tables, the
 * dictionaries and language files of their languages, and their variants; not the other hundred
 * languages nor the mbrola voices. @param {string} file  a path under espeak-ng-data/
 */
export function isVoiceData(file) {
  const [top, ...rest] = file.split('/');
  if (top === 'lang') return VOICE_LANGUAGES.has(rest[rest.length - 1].toLowerCase().split('-')[0]);
  if (top === 'voices') return rest[0] === '!v' && VOICE_VARIANTS.has(rest[1]);
  if (top.endsWith('_dict')) return VOICE_LANGUAGES.has(top.slice(0, -'_dict'.length));
  return rest.length === 0;
}

/**
 * eSpeak's data (445 files, every language's) is embedded in its WASM, and the glue creates each
 * file in a new in-memory file system at every instance, one a sentence: that was half of a short
 * sentence's CPU. This rewrites the instance's own table of embedded files (entries of name, length
 * and data addresses, ended by a null name) to the files `keep` accepts, before the glue reads it.
 * @param {WebAssembly.Memory} memory @param {number} table @param {(file: string) => boolean} keep
 */
function keepEmbeddedFiles(memory, table, keep) {
  const words = new Uint32Array(memory.buffer);
  const bytes = new Uint8Array(memory.buffer);
  const decoder = new TextDecoder();
  const nameAt = (/** @type {number} */ address) => decoder.decode(bytes.subarray(address, bytes.indexOf(0, address)));
  /** @type {number[][]} */
  const kept = [];
  for (let entry = table >> 2; words[entry] !== 0; entry += 3) {
    const name = nameAt(words[entry]);
    if (keep(name.slice(name.indexOf('espeak-ng-data/') + 'espeak-ng-data/'.length))) kept.push([...words.subarray(entry, entry + 3)]);
  }
  kept.forEach((fields, i) => words.set(fields, (table >> 2) + i * 3));
  words[(table >> 2) + kept.length * 3] = 0;
}

/**
 * A sentence as eSpeak says it, from the speech cache when the same voice said it before
 * (`--speech-cache`: a folder shared by emulators, one file a sentence and voice, written whole then
 * renamed into place) or from eSpeak. eSpeak is deterministic, so the samples are the same either way.
 * @param {string} sentence @param {string} espeakVoice @param {string | null} cacheDir
 * @returns {Promise<{ samples: Int16Array, sampleRate: number }>}
 */
async function saySentence(sentence, espeakVoice, cacheDir) {
  if (!cacheDir) return synthesizeSentence(sentence, espeakVoice);
  const file = path.join(cacheDir, `${await cacheKey('sentence', espeakVoice, sentence)}.pcm`);
  const kept = await readFile(file).catch(() => null);
  if (kept && kept.length >= 4) {
    const samples = new Int16Array(kept.buffer.slice(kept.byteOffset + 4, kept.byteOffset + kept.length));
    return { samples, sampleRate: kept.readUInt32LE(0) };
  }
  const speech = await synthesizeSentence(sentence, espeakVoice);
  const header = Buffer.alloc(4);
  header.writeUInt32LE(speech.sampleRate, 0);
  await keep(file, Buffer.concat([header, Buffer.from(speech.samples.buffer, speech.samples.byteOffset, speech.samples.byteLength)]));
  return speech;
}

/** Writes a cache file whole, then renames it into place: another emulator never reads half of one. */
async function keep(/** @type {string} */ file, /** @type {Buffer} */ bytes) {
  const partial = `${file}.${process.pid}.${Math.random().toString(36).slice(2)}`;
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(partial, bytes);
  await rename(partial, file);
}

/** @type {Promise<string> | undefined} */
let synthesizerIdentity;
/**
 * A cache file's name: what was said and how (voice, text, ...), and which eSpeak said it (another
 * build may say it otherwise). @param {...(string | number)} parts
 */
async function cacheKey(...parts) {
  synthesizerIdentity ??= stat(new URL('espeak-ng.wasm', import.meta.resolve('espeak-ng'))).then((file) => `${file.size}`);
  return createHash('sha256')
    .update([await synthesizerIdentity, ...parts].join('\0'))
    .digest('hex');
}

/**
 * @typedef {object} SpeechResult
 * @property {Buffer | null} mp3   null when the text produced no samples at all; else it owns its
 *   whole ArrayBuffer, so the worker can transfer it
 * @property {import('./srt.mjs').Cue[]} cues  one per sentence that produced audio, in seconds
 * @property {number} durationSec  PCM duration (the MP3 adds encoder padding of a few ms)
 */

/**
 * Synthesizes sentences into one MP3 with a short silence between sentences.
 * @param {string[]} sentences
 * @param {string} espeakVoice
 * @param {{ gapMs: number, shouldStop?: () => boolean, cacheDir?: string | null }} options  shouldStop is asked before each
 *   sentence and before encoding (the emulator was reset or closed); true ends the synthesis with an
 *   error. cacheDir: the speech cache (saySentence), if any
 * @returns {Promise<SpeechResult>}
 */
export async function synthesizeSpeech(sentences, espeakVoice, { gapMs, shouldStop = () => false, cacheDir = null }) {
  if (!cacheDir) return speak(sentences, espeakVoice, { gapMs, shouldStop, cacheDir });
  // The same text again (a regenerate, a retry): the MP3 too is kept.
  const file = path.join(cacheDir, `${await cacheKey('speech', espeakVoice, gapMs, ...sentences)}.speech`);
  const kept = await readFile(file).catch(() => null);
  if (kept && kept.length >= 4) {
    const headerLength = kept.readUInt32LE(0);
    const { cues, durationSec, hasMp3 } = JSON.parse(kept.subarray(4, 4 + headerLength).toString('utf8'));
    const mp3 = hasMp3 ? Buffer.from(new Uint8Array(kept.subarray(4 + headerLength)).buffer) : null;
    return { mp3, cues, durationSec };
  }
  const speech = await speak(sentences, espeakVoice, { gapMs, shouldStop, cacheDir });
  const header = Buffer.from(JSON.stringify({ cues: speech.cues, durationSec: speech.durationSec, hasMp3: speech.mp3 !== null }));
  const length = Buffer.alloc(4);
  length.writeUInt32LE(header.length, 0);
  await keep(file, Buffer.concat([length, header, speech.mp3 ?? Buffer.alloc(0)]));
  return speech;
}

/** @param {string[]} sentences @param {string} espeakVoice @param {{ gapMs: number, shouldStop: () => boolean, cacheDir: string | null }} options @returns {Promise<SpeechResult>} */
async function speak(sentences, espeakVoice, { gapMs, shouldStop, cacheDir }) {
  const stopIfAsked = () => {
    if (shouldStop()) throw new Error('Speech synthesis was cancelled.');
  };
  /** @type {Int16Array[]} */
  const parts = [];
  /** @type {import('./srt.mjs').Cue[]} */
  const cues = [];
  let sampleRate = 22050;
  let position = 0; // in samples
  for (const sentence of sentences) {
    stopIfAsked();
    const speech = await saySentence(sentence, espeakVoice, cacheDir);
    if (speech.samples.length === 0) continue;
    sampleRate = speech.sampleRate;
    if (parts.length > 0) {
      const gap = new Int16Array(Math.round((gapMs / 1000) * sampleRate));
      parts.push(gap);
      position += gap.length;
    }
    cues.push({ start: position / sampleRate, end: (position + speech.samples.length) / sampleRate, text: sentence });
    parts.push(speech.samples);
    position += speech.samples.length;
  }
  if (position === 0) return { mp3: null, cues: [], durationSec: 0 };

  const pcm = new Int16Array(position);
  let offset = 0;
  for (const part of parts) {
    pcm.set(part, offset);
    offset += part.length;
  }
  stopIfAsked();
  return { mp3: await encodeMp3(pcm, sampleRate), cues, durationSec: position / sampleRate };
}
