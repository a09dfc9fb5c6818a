#!/usr/bin/env node
/**
 * What verified narration costs (issue 37): the alignment of 10,000 words (target: under 200 ms),
 * the extra memory of comparing a one-hour transcript with its text (target: under 16 MB), and
 * what checking adds to the time from a narration's store to its `verified`, apart from the
 * service's own speech-to-text time, for a 10-minute article (about 1,500 words).
 *
 * The first two run in --processes fresh Node processes (scripts/bench/verify/run.mjs) over the
 * plugin's own modules, bundled by esbuild (no plugin build needed). The third runs the playground
 * Strapi (build it first, or pass --build) against the emulator, whose speech to text holds a job
 * 1 s queued and 1 s processing: each of --samples articles is published, stored, checked; the
 * time added is (the check's end - the store) - (the job's end - its start at the service).
 * The figures are printed, not held against the targets.
 *
 *   node scripts/bench-verify.mjs [--processes 3] [--runs 5] [--words 10000] [--hour-words 9000] [--samples 3] [--article-words 1500] [--build]
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { build } from 'esbuild';
import {
  adminToken,
  contentManager,
  ensureBuilt,
  json,
  numberOption,
  onCleanup,
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

async function comparing() {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'speech-bench-verify-'));
  onCleanup('bundle folder', () => rmSync(dir, { recursive: true, force: true }));
  const entry = path.join(dir, 'entry.ts');
  const domain = path.join(root, 'server/src/verification/domain');
  writeFileSync(entry, `export { align } from '${domain}/alignment';\nexport { compareTranscript } from '${domain}/compare';\n`);
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

runBench(
  'bench-verify',
  async () => {
    await comparing();
    await addedTime();
  },
  say
);
