/**
 * One process of the verification bench (scripts/bench-verify.mjs): aligns `--words` words sent
 * against a transcript that lost, changed and added some (about 1 %), `--runs` times, and compares
 * a one-hour transcript (`--hour-words`, in 12-word segments) with its text; one JSON line per run.
 * Started with --expose-gc. Memory as in the stitch bench: the process's peak resident size during
 * the run (VmHWM, reset through /proc/self/clear_refs) minus its size before it.
 *
 *   node --expose-gc scripts/bench/verify/run.mjs --bundle <dir> --words 10000 --hour-words 9000 --runs 5
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { numberOption, optionOf } from '../../bench-support.mjs';

const argv = process.argv.slice(2);
const bundle = optionOf(argv, 'bundle');
const WORDS = numberOption(argv, 'words', 10_000);
const HOUR_WORDS = numberOption(argv, 'hour-words', 9_000);
const RUNS = numberOption(argv, 'runs', 5);

const require = createRequire(import.meta.url);
const { align, compareTranscript } = require(path.join(bundle, 'verify.js'));

function memory() {
  const status = readFileSync('/proc/self/status', 'utf8');
  const kb = (field) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)[1]) * 1024;
  return { rss: kb('VmRSS'), hwm: kb('VmHWM') };
}

/** A deterministic text of `count` words from a vocabulary of 3,000 made-up words (prose repeats its words less than a small list would). */
function words(count, seed = 7) {
  let state = seed;
  const next = () => (state = (state * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  const syllables = ['ka', 'lo', 'mi', 'ter', 'an', 'su', 'ri', 'pe', 'dor', 'vin', 'el', 'tu'];
  const vocabulary = Array.from(
    { length: 3000 },
    (_, i) => syllables[i % 12] + syllables[Math.floor(i / 12) % 12] + syllables[Math.floor(i / 144) % 12]
  );
  return Array.from({ length: count }, () => vocabulary[Math.floor(next() ** 2 * vocabulary.length)]);
}

/** What a transcript of `sent` hears: about one word in a hundred lost, changed or added. */
function heardOf(sent) {
  const heard = [];
  sent.forEach((word, i) => {
    if (i % 301 === 7) return;
    heard.push(i % 211 === 3 ? `${word}x` : word);
    if (i % 409 === 11) heard.push('uh');
  });
  return heard;
}

function measure(action) {
  globalThis.gc();
  const before = memory().rss;
  writeFileSync('/proc/self/clear_refs', '5');
  const started = performance.now();
  const result = action();
  const ms = performance.now() - started;
  return { ms, extraBytes: memory().hwm - before, result };
}

const sent = words(WORDS);
const heard = heardOf(sent);
const hourSent = words(HOUR_WORDS, 11);
const hourHeard = heardOf(hourSent);
const segments = [];
for (let i = 0; i < hourHeard.length; i += 12) {
  segments.push({ start: i * 0.4, end: (i + 12) * 0.4, text: `${hourHeard.slice(i, i + 12).join(' ')}.` });
}
const hourText = hourSent.join(' ');

for (let run = 1; run <= RUNS; run += 1) {
  const aligned = measure(() => align(sent, heard));
  const compared = measure(() => compareTranscript(hourText, segments, 'en'));
  console.log(
    JSON.stringify({
      run,
      alignMs: aligned.ms,
      alignExtraBytes: aligned.extraBytes,
      alignAccuracy: aligned.result.wordAccuracy,
      compareMs: compared.ms,
      compareExtraBytes: compared.extraBytes,
      comparePlaces: compared.result.placeCount,
      compareAccuracy: compared.result.wordAccuracy,
    })
  );
}
