#!/usr/bin/env node
/**
 * `npm test`: builds what the tests run against (the plugin's dist, the compiled playground and,
 * for the browser tests, its admin bundle), then runs every jest project. Extra arguments go to
 * jest, e.g. `npm test -- --selectProjects unit`.
 *
 * Without arguments (CI, the README) the projects that need no build (code style and unit tests)
 * run in a second jest process while the builds run; their output follows the other projects',
 * and the last line is the totals of both runs, `N passed, N failed` (a failed build counts as one
 * failure), also written to test-artifacts/jest-totals.txt.
 */
import { spawn, spawnSync } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
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

/** The jest projects that need no build, run during the builds when `npm test` has no arguments. */
const BUILD_FREE = ['lint', 'unit'];
const duringBuilds = args.length === 0;

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

/** The build-free projects in a jest process of their own, its output to a file (this process blocks on the builds meanwhile). */
function startBuildFreeJest() {
  mkdirSync(artifacts, { recursive: true });
  const log = path.join(artifacts, 'jest-build-free.log');
  const totals = path.join(artifacts, 'jest-totals-build-free.txt');
  rmSync(totals, { force: true });
  const output = openSync(log, 'w');
  const started = Date.now();
  const child = spawn(process.execPath, [jest, '--runInBand', '--selectProjects', ...BUILD_FREE], {
    cwd: root,
    stdio: ['ignore', output, output],
    env: { ...process.env, JEST_TOTALS_FILE: totals },
  });
  closeSync(output);
  const done = new Promise((resolve) => child.once('exit', (code) => resolve({ code: code ?? 1, seconds: (Date.now() - started) / 1000 })));
  return { log, totals, done };
}

const totalsFile = path.join(artifacts, 'jest-totals.txt');
const buildFree = duringBuilds ? startBuildFreeJest() : null;
rmSync(totalsFile, { force: true });

const sdkPlugin = path.join(root, 'node_modules/@strapi/sdk-plugin/bin/strapi-plugin.js');
const steps = onlyUnit
  ? []
  : [
      // The package as `npm run build` makes it, then checked as the sdk checks it.
      ...PLUGIN_BUILD_STEPS,
      ['plugin verify', [sdkPlugin, 'verify']],
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
for (const [label, commandArgs, options] of steps) {
  status = run(label, process.execPath, commandArgs, options);
  if (status !== 0) break;
}
const built = status === 0;
const rest = createRequire(import.meta.url)(path.join(root, 'jest.config.js'))
  .projects.map((project) => project.displayName)
  .filter((name) => !BUILD_FREE.includes(name));
if (built) {
  const jestArgs = duringBuilds ? ['--selectProjects', ...rest] : args;
  status = spawnSync(process.execPath, [jest, '--runInBand', ...jestArgs], { cwd: root, stdio: 'inherit' }).status ?? 1;
}

if (buildFree) {
  const { code, seconds } = await buildFree.done;
  console.log(`\n[test] ${BUILD_FREE.join(' and ')}, run during the builds (${seconds.toFixed(1)} s):\n`);
  process.stdout.write(readFileSync(buildFree.log, 'utf8'));
  if (status === 0) status = code;
  // Both runs' totals; a run that wrote none (a build failed, or jest itself did) counts as one failure.
  const runs = [readTotals(buildFree.totals), built ? readTotals(totalsFile) : null];
  const sum = (key) => runs.reduce((total, totals) => total + (totals?.[key] ?? 0), 0);
  const failed = sum('failed') + runs.filter((totals) => !totals).length;
  const line = `${sum('passed')} passed, ${failed} failed${sum('skipped') ? `, ${sum('skipped')} skipped` : ''}`;
  writeFileSync(totalsFile, `${line}\n`);
  process.stdout.write(`\n${line}\n`);
}
process.exitCode = status;
