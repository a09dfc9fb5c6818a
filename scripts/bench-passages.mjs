#!/usr/bin/env node
/**
 * What passage voices cost (issue 38): telling the language of every paragraph of a 10,000-word
 * bilingual article and choosing its voice (target: under 50 ms), cold (the first article a
 * process reads) and warm. Runs in --processes fresh Node processes (scripts/bench/passages/run.mjs)
 * over the plugin's own modules and franc-min, bundled by esbuild (no plugin build needed). The
 * figures are printed, not held against the target.
 *
 *   node scripts/bench-passages.mjs [--processes 3] [--runs 5] [--words 10000]
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { build } from 'esbuild';
import { numberOption, onCleanup, root, runBench, sayAs } from './bench-support.mjs';
import { printTable, stats } from './bench/figures.mjs';

const argv = process.argv.slice(2);
const PROCESSES = numberOption(argv, 'processes', 3);
const RUNS = numberOption(argv, 'runs', 5);
const WORDS = numberOption(argv, 'words', 10_000);
const say = sayAs('bench-passages');

async function main() {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'speech-bench-passages-'));
  onCleanup('bundle folder', () => rmSync(dir, { recursive: true, force: true }));
  const entry = path.join(dir, 'entry.ts');
  const passages = path.join(root, 'server/src/passages');
  writeFileSync(
    entry,
    `export { passagesOf, voiceRuns } from '${passages}/domain/passages';\nexport { detectLanguage } from '${passages}/language-detector';\n`
  );
  await build({
    entryPoints: [entry],
    bundle: true,
    platform: 'node',
    format: 'cjs',
    outfile: path.join(dir, 'passages.js'),
    logLevel: 'warning',
  });
  const runs = [];
  for (let process = 1; process <= PROCESSES; process += 1) {
    const child = spawnSync(
      globalThis.process.execPath,
      [path.join(root, 'scripts/bench/passages/run.mjs'), '--bundle', dir, '--words', String(WORDS), '--runs', String(RUNS)],
      { encoding: 'utf8' }
    );
    if (child.status !== 0) throw new Error(`run.mjs failed: ${child.stderr}`);
    for (const line of child.stdout.trim().split('\n')) runs.push({ process, ...JSON.parse(line) });
  }
  const row = (label, list) => {
    const time = stats(
      list.map((run) => run.ms),
      'p50',
      'max'
    );
    return [label, String(list.length), time.p50.toFixed(1), time.max.toFixed(1)];
  };
  const [first] = runs;
  say(
    `the passages of a ${first.words.toLocaleString('en')}-word article (${first.paragraphs} paragraphs, ${first.english} of them English in an Arabic article): languages told and voices chosen, in ${first.runs} runs of one voice`
  );
  printTable(
    ['', 'runs', 'ms p50', 'ms max'],
    [
      row(
        'cold',
        runs.filter((run) => run.run === 1)
      ),
      row(
        'warm',
        runs.filter((run) => run.run > 1)
      ),
    ]
  );
}

runBench('bench-passages', main, say);
