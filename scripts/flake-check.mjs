#!/usr/bin/env node
/**
 * `npm run flake-check`: runs test files several times in a row under load, to find the tests that
 * pass on a quiet machine and fail on a busy one. Each file runs alone (`--runInBand`) while
 * `--load` busy processes (`yes > /dev/null`, as a CI neighbour would) hold the cores; a round ends
 * with the file's verdict and seconds, appended as one JSON line to test-artifacts/flake-check.jsonl
 * with the commit, so rounds can be spread over several sittings and read together.
 *
 *   npm run flake-check                                  every suite below, 5 rounds, 2 busy processes
 *   npm run flake-check -- --times 3 tests/e2e/admin.test.ts
 *   npm run flake-check -- --report                      the table of what the log holds for HEAD
 *
 * Runs against the built plugin and playground, as `npm test` leaves them (build first).
 */
import { spawn, spawnSync } from 'node:child_process';
import { appendFileSync, existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const logFile = path.join(root, 'test-artifacts', 'flake-check.jsonl');

/** Suites that restart a database or Strapi, drive a browser, or wait on time: those a busy machine can break. */
const RESTARTS = ['database-restart', 'multi-instance', 'restart', 'service-down', 'upgrade'].map(
  (name) => `tests/integration/${name}.test.ts`
);
const TIMED = [
  'budget',
  'credits',
  'insights',
  'narration',
  'query-plans',
  'segmented',
  'service-errors',
  'slow-media',
  'flaky-media',
  'transcription',
  'webhooks',
].map((name) => `tests/integration/${name}.test.ts`);
const BROWSER = readdirSync(path.join(root, 'tests/e2e'))
  .filter((name) => name.endsWith('.test.ts'))
  .sort()
  .map((name) => `tests/e2e/${name}`);
const FLAKE_SUITES = [...RESTARTS, ...BROWSER, ...TIMED];

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    times: { type: 'string', default: '5' },
    load: { type: 'string', default: '2' },
    report: { type: 'boolean', default: false },
  },
});
const commit = spawnSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: root, encoding: 'utf8' }).stdout.trim();

function report() {
  const rounds = existsSync(logFile)
    ? readFileSync(logFile, 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line))
        .filter((round) => round.commit === commit)
    : [];
  const byFile = new Map();
  for (const round of rounds) byFile.set(round.file, [...(byFile.get(round.file) ?? []), round]);
  console.log(`[flake-check] ${commit}: ${rounds.length} rounds in ${logFile}`);
  for (const [file, runs] of [...byFile].sort()) {
    const failed = runs.filter((run) => !run.passed);
    const seconds = runs.map((run) => run.seconds.toFixed(0)).join(', ');
    console.log(
      `${`${runs.length - failed.length}/${runs.length}`.padStart(6)}  ${file}  (${seconds} s)${failed.length ? `  FAILED: ${failed.map((run) => run.failures.join('; ')).join(' | ')}` : ''}`
    );
  }
}

if (values.report) report();
else checkUnderLoad();

function checkUnderLoad() {
  const files = positionals.length ? positionals : FLAKE_SUITES;
  const times = Number(values.times);
  const busy = Array.from({ length: Number(values.load) }, () => spawn('yes', [], { stdio: ['ignore', 'ignore', 'ignore'] }));
  const stopLoad = () => busy.forEach((child) => child.kill());
  process.on('exit', stopLoad);
  // Ctrl-C: the load stops first, then the signal ends this process as it would have.
  process.once('SIGINT', () => {
    stopLoad();
    process.kill(process.pid, 'SIGINT');
  });
  mkdirSync(path.dirname(logFile), { recursive: true });

  for (let round = 1; round <= times; round++) {
    for (const file of files) {
      const started = Date.now();
      const jest = spawnSync(process.execPath, [path.join(root, 'node_modules/jest/bin/jest.js'), file, '--runInBand'], {
        cwd: root,
        encoding: 'utf8',
        maxBuffer: 256 * 1024 * 1024,
        env: { ...process.env, JEST_TOTALS_FILE: path.join(root, 'test-artifacts', 'flake-check-totals.txt') },
      });
      const output = `${jest.stdout}\n${jest.stderr}`;
      const failures = [...output.matchAll(/^\s+● (.+ › .+)$/gm)].map((match) => match[1]);
      const passed = jest.status === 0;
      const entry = { commit, file, round, passed, seconds: (Date.now() - started) / 1000, failures, at: new Date().toISOString() };
      appendFileSync(logFile, `${JSON.stringify(entry)}\n`);
      console.log(`[flake-check] round ${round}/${times} ${passed ? 'PASS' : 'FAIL'} ${file} (${entry.seconds.toFixed(0)} s)`);
      if (!passed) console.log(output.split('\n').slice(-80).join('\n'));
    }
  }
  stopLoad();
  report();
}
