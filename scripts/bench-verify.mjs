#!/usr/bin/env node
/**
 * What verified narration costs (issue 37): the alignment of 10,000 words (target: under 200 ms),
 * the extra memory of comparing a one-hour transcript with its text (target: under 16 MB), the
 * alignment of 10,000 words against a transcript with none of them, at the default minimum word
 * accuracy (target: a mismatch in under 200 ms), and what checking adds to the time from a
 * narration's store to its `verified`, apart from the service's own speech-to-text time, for a
 * 10-minute article (about 1,500 words).
 *
 * The first two run in --processes fresh Node processes (scripts/bench/verify/run.mjs) over the
 * plugin's own modules, bundled by esbuild (no plugin build needed); the third in as many fresh
 * processes of this script (--unrelated-in <bundle folder>: --runs alignments, then the whole
 * comparison and the check's outcome, one JSON line per run). The fourth runs the playground
 * Strapi (build it first, or pass --build) against the emulator, whose speech to text holds a job
 * 1 s queued and 1 s processing: each of --samples articles is published, stored, checked; the
 * time added is (the check's end - the store) - (the job's end - its start at the service).
 * The figures are printed, not held against the targets.
 *
 *   node scripts/bench-verify.mjs [--processes 3] [--runs 5] [--words 10000] [--hour-words 9000] [--samples 3] [--article-words 1500] [--build]
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { build } from 'esbuild';
import {
  adminToken,
  contentManager,
  ensureBuilt,
  json,
  numberOption,
  onCleanup,
  optionOf,
  playgroundAround,
  playgroundWorkDir,
  root,
  runBench,
  sayAs,
  waitFor,
} from './bench-support.mjs';
import { printTable, stats } from './bench/figures.mjs';

const argv = process.argv.slice(2);
const PROCESSES = numberOption(argv, 'processes', 3);
const RUNS = numberOption(argv, 'runs', 5);
const WORDS = numberOption(argv, 'words', 10_000);
const HOUR_WORDS = numberOption(argv, 'hour-words', 9_000);
const SAMPLES = numberOption(argv, 'samples', 3);
const ARTICLE_WORDS = numberOption(argv, 'article-words', 1_500);
const ARTICLE = 'api::article.article';
const API_KEY = 'bench-verify-key';
const MB = 1024 * 1024;
const say = sayAs('bench-verify');
const UNRELATED_IN = optionOf(argv, 'unrelated-in');

async function comparing() {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'speech-bench-verify-'));
  onCleanup('bundle folder', () => rmSync(dir, { recursive: true, force: true }));
  const entry = path.join(dir, 'entry.ts');
  const domain = path.join(root, 'server/src/verification/domain');
  writeFileSync(
    entry,
    [
      `export { align } from '${domain}/alignment';`,
      `export { compareTranscript } from '${domain}/compare';`,
      `export { afterComparison } from '${domain}/check';`,
      `export { verificationConfigSchema } from '${path.join(root, 'server/src/verification')}/config';`,
    ].join('\n')
  );
  await build({
    entryPoints: [entry],
    bundle: true,
    platform: 'node',
    format: 'cjs',
    outfile: path.join(dir, 'verify.js'),
    logLevel: 'warning',
  });
  const runs = [];
  for (let process = 1; process <= PROCESSES; process += 1) {
    const child = spawnSync(
      globalThis.process.execPath,
      [
        '--expose-gc',
        path.join(root, 'scripts/bench/verify/run.mjs'),
        '--bundle',
        dir,
        '--words',
        String(WORDS),
        '--hour-words',
        String(HOUR_WORDS),
        '--runs',
        String(RUNS),
      ],
      { encoding: 'utf8' }
    );
    if (child.status !== 0) throw new Error(`run.mjs failed: ${child.stderr}`);
    for (const line of child.stdout.trim().split('\n')) runs.push({ process, ...JSON.parse(line) });
  }
  const cold = runs.filter((run) => run.run === 1);
  const warm = runs.filter((run) => run.run > 1);
  const row = (label, list, ms, bytes) => {
    const time = stats(
      list.map((run) => run[ms]),
      'p50',
      'max'
    );
    const memory = stats(
      list.map((run) => run[bytes] / MB),
      'p50',
      'max'
    );
    return [label, String(list.length), time.p50.toFixed(1), time.max.toFixed(1), memory.p50.toFixed(1), memory.max.toFixed(1)];
  };
  say(
    `alignment of ${WORDS.toLocaleString('en')} words (word accuracy ${runs[0].alignAccuracy.toFixed(4)}), and a one-hour transcript of ${HOUR_WORDS.toLocaleString('en')} words compared with its text (${runs[0].comparePlaces} places):`
  );
  printTable(
    ['', 'runs', 'ms p50', 'ms max', 'extra MB p50', 'extra MB max'],
    [
      row('align, cold', cold, 'alignMs', 'alignExtraBytes'),
      row('align, warm', warm, 'alignMs', 'alignExtraBytes'),
      row('one hour compared, cold', cold, 'compareMs', 'compareExtraBytes'),
      row('one hour compared, warm', warm, 'compareMs', 'compareExtraBytes'),
    ]
  );
  unrelated(dir);
}

/** --words words sent, as many heard and none of them in common: each process's --runs, then the table; any outcome but a mismatch fails. */
function unrelated(bundle) {
  const runs = [];
  for (let process = 1; process <= PROCESSES; process += 1) {
    const child = spawnSync(
      globalThis.process.execPath,
      [path.join(root, 'scripts/bench-verify.mjs'), '--unrelated-in', bundle, '--words', String(WORDS), '--runs', String(RUNS)],
      { encoding: 'utf8' }
    );
    if (child.status !== 0) throw new Error(`bench-verify.mjs --unrelated-in failed: ${child.stderr}`);
    for (const line of child.stdout.trim().split('\n')) runs.push({ process, ...JSON.parse(line) });
  }
  const row = (label, list, ms) => {
    const time = stats(
      list.map((run) => run[ms]),
      'p50',
      'max'
    );
    return [label, String(list.length), time.p50.toFixed(1), time.max.toFixed(1)];
  };
  const cold = runs.filter((run) => run.run === 1);
  const warm = runs.filter((run) => run.run > 1);
  const statuses = [...new Set(runs.map((run) => run.status))].join(', ');
  const aligned = runs.filter((run) => run.aligned).length;
  if (statuses !== 'mismatch') throw new Error(`unrelated words ended as ${statuses}, not a mismatch`);
  say(
    `${WORDS.toLocaleString('en')} words sent against ${WORDS.toLocaleString('en')} heard, none in common, at the minimum word accuracy ${runs[0].minWordAccuracy}: the check's outcome ${statuses}; aligned in ${aligned} runs of ${runs.length}:`
  );
  printTable(
    ['', 'runs', 'ms p50', 'ms max'],
    [
      row('align, cold', cold, 'alignMs'),
      row('align, warm', warm, 'alignMs'),
      row('whole text compared, cold', cold, 'compareMs'),
      row('whole text compared, warm', warm, 'compareMs'),
    ]
  );
}

/** One process of the unrelated-words figure, over the bundle in `bundle`: one JSON line per run. */
function unrelatedRuns(bundle) {
  const { align, compareTranscript, afterComparison, verificationConfigSchema } = createRequire(import.meta.url)(
    path.join(bundle, 'verify.js')
  );
  const { minWordAccuracy } = verificationConfigSchema.parse({});
  const sent = Array.from({ length: WORDS }, (_, i) => `sent${i % 3000}`);
  const heard = Array.from({ length: WORDS }, (_, i) => `heard${i % 3000}`);
  const segments = [{ start: 0, end: WORDS * 0.4, text: heard.join(' ') }];
  for (let run = 1; run <= RUNS; run += 1) {
    let started = performance.now();
    const alignment = align(sent, heard, minWordAccuracy);
    const alignMs = performance.now() - started;
    started = performance.now();
    const comparison = compareTranscript(sent.join(' '), segments, 'en', minWordAccuracy);
    const compareMs = performance.now() - started;
    const { status } = afterComparison(comparison, minWordAccuracy, new Date());
    console.log(JSON.stringify({ run, minWordAccuracy, alignMs, compareMs, aligned: alignment.wordAccuracy !== null, status }));
  }
}

/** An article of about `words` words: sentences of ten. */
function longArticle(index, words) {
  const sentences = [];
  for (let n = 0; n * 10 < words; n += 1) sentences.push(`Sentence ${n + 1} of article ${index} says ten words with a few more.`);
  const paragraphs = [];
  for (let i = 0; i < sentences.length; i += 8)
    paragraphs.push({ type: 'paragraph', children: [{ type: 'text', text: sentences.slice(i, i + 8).join(' ') }] });
  return { title: `Checked article ${index}`, summary: 'A ten-minute read.', body: paragraphs };
}

async function addedTime() {
  ensureBuilt(argv, say);
  const { workDir } = playgroundWorkDir('speech-bench-verify-');
  const around = await playgroundAround({
    workDir,
    apiKey: API_KEY,
    emulatorArgs: ['--stt-queued-ms', '1000', '--stt-processing-ms', '1000', '--delay', '200', '--max-narrated-sentences', '100000'],
    extra: {
      SPEECH_DEFAULT_VOICE: 'en-male-1',
      SPEECH_STT_POLL_MS: '250',
      SPEECH_CONTENT_TYPES: JSON.stringify({
        [ARTICLE]: { titleField: 'title', textFields: ['summary', 'body'], trigger: 'publish', verify: true },
      }),
    },
  });
  const strapi = await around.start();
  onCleanup('strapi', () => strapi.stop());
  const token = await adminToken(around.url, { email: 'bench@example.com', password: 'Bench-Passw0rd!' });
  const articles = contentManager(around.url, token, ARTICLE);
  const rows = [];
  for (let sample = 1; sample <= SAMPLES; sample += 1) {
    const created = await articles.create(longArticle(sample, ARTICLE_WORDS));
    await articles.publish(created.documentId);
    const narration = await waitFor(
      async () => {
        const { body } = await json(
          `${around.url}/speech/narrations/document/${created.documentId}?contentType=${ARTICLE}&locale=en`,
          'GET',
          undefined,
          token
        );
        const row = body?.data?.[0];
        return row?.verification && row.verification.status !== 'pending' ? row : null;
      },
      { timeoutMs: 10 * 60_000, intervalMs: 100, what: `the check of article ${sample}` }
    );
    const { articles: emulated } = (await json(`${around.emulator.info.webUrl}/__control/articles?articleId=${narration.articleId}`, 'GET'))
      .body;
    const sha = emulated[0].audio.sha256;
    const { jobs } = (await json(`${around.emulator.info.webUrl}/__control/stt-jobs?sha256=${sha}`, 'GET')).body;
    const job = jobs[0];
    const total = Date.parse(narration.verification.checkedAt) - Date.parse(narration.completedAt);
    const service = Date.parse(job.updatedAt) - Date.parse(job.createdAt);
    rows.push({ sample, total, service, added: total - service, status: narration.verification.status });
    if (narration.verification.status !== 'verified') say(`article ${sample}: ${JSON.stringify(narration.verification).slice(0, 1500)}`);
  }
  say(
    `from a ${ARTICLE_WORDS.toLocaleString('en')}-word article's store to its check's end (emulator: STT 1 s queued, 1 s processing; the plugin polls every 250 ms):`
  );
  printTable(
    ['article', 'store to checked ms', 'at the service ms', 'added by the plugin ms', 'status'],
    rows.map((row) => [String(row.sample), String(row.total), String(row.service), String(row.added), row.status])
  );
}

if (UNRELATED_IN) unrelatedRuns(UNRELATED_IN);
else
  runBench(
    'bench-verify',
    async () => {
      await comparing();
      await addedTime();
    },
    say
  );
