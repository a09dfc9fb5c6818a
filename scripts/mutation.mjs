#!/usr/bin/env node
/**
 * `npm run mutation`: mutation testing (StrykerJS) of the pure domains whose rules the unit tests
 * must pin: the queue's state table, the credits, the listening insights, verified narration and
 * passage voices. Each domain is
 * mutated alone against its own unit tests; the score of each is printed, and the HTML reports
 * are left in test-artifacts/mutation/. Outside CI (a run takes minutes per domain).
 *
 *   npm run mutation                  every domain
 *   npm run mutation -- states        some of them (states, credits, insights, verification, passages)
 *   MUTATION_CONCURRENCY=2 npm run mutation   two test runners side by side (an idle machine)
 *
 * StrykerJS is installed by this script at a pinned version, not as a dev dependency: every
 * `npm install` (CI's too) would otherwise unpack it for a script CI never runs. 9.x is the last
 * line that runs on Node 20.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const STRYKER = '9.6.1';
const TARGET = 90;

const DOMAINS = {
  states: { mutate: ['server/src/queue/domain/states/**/*.ts'], tests: 'tests/unit/queue/(states|parts|submission)' },
  credits: { mutate: ['server/src/credits/domain/**/*.ts'], tests: 'tests/unit/credits/' },
  insights: { mutate: ['server/src/insights/domain/**/*.ts'], tests: 'tests/unit/(insights/|player/insights)' },
  verification: { mutate: ['server/src/verification/domain/**/*.ts'], tests: 'tests/unit/verification/' },
  passages: { mutate: ['server/src/passages/domain/**/*.ts'], tests: 'tests/unit/passages/' },
};

const wanted = process.argv.slice(2);
const unknown = wanted.filter((name) => !(name in DOMAINS));
if (unknown.length) {
  console.error(`unknown domain(s): ${unknown.join(', ')}; known: ${Object.keys(DOMAINS).join(', ')}`);
  process.exit(2);
}

const stryker = installStryker();
const scores = [];
for (const name of wanted.length ? wanted : Object.keys(DOMAINS)) {
  const domain = DOMAINS[name];
  const reportDir = path.join(root, 'test-artifacts', 'mutation', name);
  mkdirSync(reportDir, { recursive: true });
  const config = {
    packageManager: 'npm',
    testRunner: 'jest',
    plugins: ['@stryker-mutator/jest-runner', path.join(root, 'scripts', 'mutation', 'message-texts.mjs')],
    // The words of an ignored event's reason or a failure's message are said, not tested.
    ignorers: ['message-texts'],
    jest: { projectType: 'custom', configFile: 'scripts/mutation/jest.config.js', enableFindRelatedTests: false },
    mutate: domain.mutate,
    coverageAnalysis: 'perTest',
    // One jest at a time unless told: beside other work on two cores, two runners time each other out.
    concurrency: Number(process.env.MUTATION_CONCURRENCY ?? 1),
    reporters: ['clear-text', 'html', 'json'],
    htmlReporter: { fileName: path.join(reportDir, 'index.html') },
    jsonReporter: { fileName: path.join(reportDir, 'report.json') },
    tempDirName: path.join('test-artifacts', 'mutation', `.stryker-${name}`),
    cleanTempDir: true,
    thresholds: { high: TARGET, low: 80, break: null },
  };
  const configFile = path.join(reportDir, 'stryker.config.json');
  // Written beside the report: nothing of a run is a tracked file.
  writeFileSync(configFile, JSON.stringify(config, null, 2));
  console.log(`\n[mutation] ${name}: ${domain.mutate.join(' ')} against ${domain.tests}`);
  const run = spawnSync(stryker, ['run', configFile], {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, MUTATION_TESTS: domain.tests },
  });
  if (run.status !== 0) {
    console.error(`[mutation] ${name}: stryker exited with ${run.status}`);
    process.exitCode = 1;
    continue;
  }
  scores.push({ name, ...scoreOf(JSON.parse(readFileSync(config.jsonReporter.fileName, 'utf8'))) });
}

console.log('\n[mutation] scores (killed and timed out over all valid mutants; target 90 %):');
for (const { name, killed, survived, noCoverage, score } of scores) {
  console.log(
    `  ${name.padEnd(9)} ${score.toFixed(1).padStart(5)} %  (${killed} killed, ${survived} survived, ${noCoverage} without coverage)`
  );
}

/**
 * Stryker at its pinned version, installed once under test-artifacts/ (untracked). Inside the
 * project, so that its core finds the project's own TypeScript and Jest up the folder tree.
 */
function installStryker() {
  const prefix = path.join(root, 'test-artifacts', 'mutation', 'stryker');
  const bin = path.join(prefix, 'node_modules', '.bin', 'stryker');
  if (!existsSync(bin)) {
    console.log(`[mutation] installing StrykerJS ${STRYKER} in ${path.relative(root, prefix)}`);
    mkdirSync(prefix, { recursive: true });
    const install = spawnSync(
      'npm',
      [
        'install',
        '--prefix',
        prefix,
        '--no-save',
        '--no-package-lock',
        '--legacy-peer-deps',
        '--no-audit',
        '--no-fund',
        `@stryker-mutator/core@${STRYKER}`,
        `@stryker-mutator/jest-runner@${STRYKER}`,
      ],
      { cwd: root, stdio: 'inherit' }
    );
    if (install.status !== 0) throw new Error(`npm install of StrykerJS ${STRYKER} failed`);
  }
  return bin;
}

/** The mutation score as Stryker counts it: detected (killed, timed out) over detected and undetected. */
function scoreOf(report) {
  const count = { killed: 0, survived: 0, noCoverage: 0, timeout: 0 };
  for (const file of Object.values(report.files)) {
    for (const mutant of file.mutants) {
      if (mutant.status === 'Killed') count.killed += 1;
      else if (mutant.status === 'Timeout') count.timeout += 1;
      else if (mutant.status === 'Survived') count.survived += 1;
      else if (mutant.status === 'NoCoverage') count.noCoverage += 1;
    }
  }
  const detected = count.killed + count.timeout;
  return { ...count, score: (100 * detected) / (detected + count.survived + count.noCoverage) };
}
