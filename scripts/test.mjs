#!/usr/bin/env node
/**
 * `npm test`: builds what the tests run against (the plugin's dist, the compiled playground and,
 * for the browser tests, its admin bundle), then runs every jest project. Extra arguments go to
 * jest, e.g. `npm test -- --selectProjects unit`.
 *
 * Without arguments (CI, the README) the projects that need no build (code style, unit tests, the
 * emulator) run in a jest process of their own while the builds run; then integration, e2e and
 * install run three test files at a time (SPEECH_TEST_WORKERS), the longest first
 * (tests/sequencer.js): each file boots its own Strapi, emulator and database servers, on ports of
 * its worker's own (tests/integration/harness.ts). Their output follows the main run's; then the
 * 15 slowest test files with their seconds, and last the totals of all runs, `N passed, N failed`
 * (a failed build counts as one failure), also written to test-artifacts/jest-totals.txt. With
 * arguments, jest runs them in one process (--runInBand), as before.
 */
import { spawn, spawnSync } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PLUGIN_BUILD_STEPS } from './build-plugin.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const selecting = args.includes('--selectProjects');
const onlyUnit = selecting && !args.some((a) => ['integration', 'e2e', 'emulator', 'install'].includes(a));
const withBrowser = !selecting || args.includes('e2e');
const jest = path.join(root, 'node_modules/jest/bin/jest.js');
const artifacts = path.join(root, 'test-artifacts');

/**
 * Test files that run side by side after the builds, when `npm test` has no arguments. Two at a
 * time leave the cores idle while both wait on a timer (integration and e2e alone: 75 % busy);
 * three keep them 94 % busy: a fresh clone's CI took 1,661 s against 1,853 s two at a time
 * (2026-11-28). The first whole runs three at a time brought out two races of the plugin under
 * load, both fixed since: the reconciliation's (09a4e8c) and a store's lease (689203f).
 */
const SIDE_BY_SIDE = Number(process.env.SPEECH_TEST_WORKERS ?? 3);

/** The jest projects that need no build, run during the builds when `npm test` has no arguments. */
const BUILD_FREE = ['lint', 'unit', 'emulator'];
const overlapping = args.length === 0;

function run(label, command, commandArgs, options = {}) {
  const started = Date.now();
  const result = spawnSync(command, commandArgs, {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, STRAPI_TELEMETRY_DISABLED: 'true' },
    ...options,
  });
  console.log(`[test] ${label}: ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return result.status ?? 1;
}

/** `N passed, N failed[, N skipped]` as tests/summary-reporter.js wrote it to `file`; null if it did not. */
function readTotals(file) {
  const match = existsSync(file) && /^(\d+) passed, (\d+) failed(?:, (\d+) skipped)?$/m.exec(readFileSync(file, 'utf8'));
  return match ? { passed: Number(match[1]), failed: Number(match[2]), skipped: Number(match[3] ?? 0) } : null;
}

/** Projects in a jest process of their own, its output to a file (this process goes on meanwhile). */
function startJest(name, projects) {
  mkdirSync(artifacts, { recursive: true });
  const log = path.join(artifacts, `jest-${name}.log`);
  const totals = path.join(artifacts, `jest-totals-${name}.txt`);
  const times = path.join(artifacts, `jest-times-${name}.json`);
  rmSync(totals, { force: true });
  rmSync(times, { force: true });
  const output = openSync(log, 'w');
  const started = Date.now();
  const child = spawn(process.execPath, [jest, '--runInBand', '--selectProjects', ...projects], {
    cwd: root,
    stdio: ['ignore', output, output],
    env: { ...process.env, JEST_TOTALS_FILE: totals, JEST_TIMES_FILE: times },
  });
  closeSync(output);
  // Its end is read from its totals file: this process, blocked in the main run, hears its exit late.
  const ended = () => (existsSync(totals) ? statSync(totals).mtimeMs : Date.now());
  const done = new Promise((resolve) => child.once('exit', (code) => resolve({ code: code ?? 1, seconds: (ended() - started) / 1000 })));
  return { name: projects.join(' and '), log, totals, times, done };
}

const totalsFile = path.join(artifacts, 'jest-totals.txt');
const timesFile = path.join(artifacts, 'jest-times.json');
/** Each test file's CPU seconds, one JSON line each (tests/cpu-environment.js). */
const cpuFile = path.join(artifacts, 'jest-cpu.jsonl');
rmSync(cpuFile, { force: true });
process.env.JEST_CPU_FILE = cpuFile;
const sideRuns = overlapping ? [startJest('build-free', BUILD_FREE)] : [];
rmSync(totalsFile, { force: true });
rmSync(timesFile, { force: true });

const sdkPlugin = path.join(root, 'node_modules/@strapi/sdk-plugin/bin/strapi-plugin.js');
// The package as `npm run build` makes it, then checked as the sdk checks it.
const pluginSteps = onlyUnit ? [] : [...PLUGIN_BUILD_STEPS, ['plugin verify', [sdkPlugin, 'verify']]];
const playgroundSteps = onlyUnit
  ? []
  : [
      withBrowser
        ? // The browser tests need the playground's admin bundle; `strapi build` compiles the server too.
          [
            'playground build (server and admin)',
            [path.join(root, 'node_modules/@strapi/strapi/bin/strapi.js'), 'build'],
            { cwd: path.join(root, 'playground') },
          ]
        : ['playground compile', [path.join(root, 'scripts/playground.cjs'), 'compile']],
    ];

let status = 0;
const runSteps = (steps) => {
  for (const [label, commandArgs, options] of steps) {
    status = run(label, process.execPath, commandArgs, options);
    if (status !== 0) return false;
  }
  return true;
};
const built = runSteps(pluginSteps) && runSteps(playgroundSteps);
const rest = createRequire(import.meta.url)(path.join(root, 'jest.config.js'))
  .projects.map((project) => project.displayName)
  .filter((name) => !BUILD_FREE.includes(name));
if (built) {
  // The whole run: three test files at a time (each boots its own Strapi, emulator and database on
  // ports of its worker's own, harness.ts), the longest first (tests/sequencer.js).
  const jestArgs = overlapping ? [`--maxWorkers=${SIDE_BY_SIDE}`, '--selectProjects', ...rest] : ['--runInBand', ...args];
  status = spawnSync(process.execPath, [jest, ...jestArgs], { cwd: root, stdio: 'inherit' }).status ?? 1;
}

/** Every test file's seconds, from the runs that wrote them, slowest first. */
function slowestFiles(files, count) {
  const times = files.flatMap((file) => (existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : []));
  return times.sort((a, b) => b[1] - a[1]).slice(0, count);
}

if (overlapping) {
  const runs = [{ totals: built ? totalsFile : null, times: timesFile }];
  for (const side of sideRuns) {
    const { code, seconds } = await side.done;
    console.log(`\n[test] ${side.name}, run during the builds (${seconds.toFixed(1)} s):\n`);
    process.stdout.write(readFileSync(side.log, 'utf8'));
    if (status === 0) status = code;
    runs.push({ totals: side.totals, times: side.times });
  }
  const cpu = new Map(
    existsSync(cpuFile)
      ? readFileSync(cpuFile, 'utf8')
          .split('\n')
          .filter(Boolean)
          .map((line) => JSON.parse(line))
      : []
  );
  const cpuOf = (file) => (cpu.has(file) ? `${cpu.get(file).toFixed(1).padStart(8)} CPU-s` : '');
  console.log('\n[test] the 15 slowest test files (seconds, and CPU seconds with the processes each started):');
  for (const [file, seconds] of slowestFiles(
    runs.map((run) => run.times),
    15
  ))
    console.log(`${seconds.toFixed(1).padStart(8)} s ${cpuOf(file)}  ${file}`);
  // Two cores run three files at a time: the whole run's length follows its CPU seconds.
  const spent = [...cpu.entries()].sort((a, b) => b[1] - a[1]);
  console.log(`\n[test] CPU seconds of all test files: ${spent.reduce((sum, [, each]) => sum + each, 0).toFixed(0)}; the 15 costliest:`);
  for (const [file] of spent.slice(0, 15)) console.log(`${cpuOf(file)}  ${file}`);
  // Every run's totals; a run that wrote none (a build failed, or jest itself did) counts as one failure.
  const totals = runs.map((run) => (run.totals ? readTotals(run.totals) : null));
  const sum = (key) => totals.reduce((total, each) => total + (each?.[key] ?? 0), 0);
  const failed = sum('failed') + totals.filter((each) => !each).length;
  const line = `${sum('passed')} passed, ${failed} failed${sum('skipped') ? `, ${sum('skipped')} skipped` : ''}`;
  writeFileSync(totalsFile, `${line}\n`);
  process.stdout.write(`\n${line}\n`);
}
process.exitCode = status;
