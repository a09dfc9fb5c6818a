#!/usr/bin/env node
/**
 * `npm run calendar-boundaries`: runs test files with the whole run's wall clock moved to the dates
 * where a calendar goes wrong (a month's first and last day, a year's turn, a leap day, 23:59 UTC),
 * by libfaketime (Debian's `faketime`). Every process the tests start (Strapi, the emulator, the
 * databases, Chromium) inherits one relative offset, so they agree on the time; the clock then
 * runs on from there, and a run begun at 23:59 crosses midnight. Monotonic clocks are left alone.
 *
 *   npm run calendar-boundaries                                   the date suites at every boundary
 *   npm run calendar-boundaries -- --at 2027-03-01T00:00:30Z tests/integration/budget.test.ts
 *
 * Runs against the built plugin and playground, as `npm test` leaves them (build first). Ends with
 * a line per date and file: passed or failed, and the seconds.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

const BOUNDARIES = [
  '2026-12-01T00:00:30Z', // the first day of a 31-day month
  '2026-12-31T23:59:00Z', // its last day at 23:59, on into 1 January
  '2027-01-01T00:00:30Z', // a year's first day
  '2027-02-28T23:59:00Z', // on into 1 March of a common year
  '2028-03-01T00:00:30Z', // 1 March of a leap year, 29 February before it
  '2027-04-01T00:00:30Z', // the first day of a 30-day month
  '2027-04-30T23:59:00Z', // its last day at 23:59
];

/** The suites that read dates: the budget's month, the usage view's days, the ledger, listening days. */
const DATE_SUITES = [
  'tests/unit',
  'tests/integration/budget.test.ts',
  'tests/integration/credits.test.ts',
  'tests/integration/insights.test.ts',
  'tests/e2e/usage.test.ts',
];

const LIBRARY = ['/usr/lib/x86_64-linux-gnu/faketime/libfaketimeMT.so.1', '/usr/lib/aarch64-linux-gnu/faketime/libfaketimeMT.so.1'].find(
  (candidate) => existsSync(candidate)
);
if (!LIBRARY) throw new Error('libfaketime is not installed (apt-get install faketime)');

const { values, positionals } = parseArgs({ options: { at: { type: 'string', multiple: true } }, allowPositionals: true });
const dates = values.at ?? BOUNDARIES;
const files = positionals.length ? positionals : DATE_SUITES;
const jest = path.join(root, 'node_modules/jest/bin/jest.js');

const results = [];
for (const at of dates) {
  const target = Date.parse(at);
  if (Number.isNaN(target)) throw new Error(`--at ${at} is not a date`);
  for (const file of files) {
    const offset = Math.round((target - Date.now()) / 1000);
    console.log(`\n[calendar] ${at} (offset ${offset} s): ${file}`);
    const started = Date.now();
    const { status } = spawnSync(process.execPath, [jest, '--runInBand', file], {
      cwd: root,
      stdio: 'inherit',
      env: {
        ...process.env,
        LD_PRELOAD: LIBRARY,
        FAKETIME: `${offset < 0 ? '' : '+'}${offset}`,
        FAKETIME_DONT_FAKE_MONOTONIC: '1',
        STRAPI_TELEMETRY_DISABLED: 'true',
      },
    });
    results.push({ at, file, passed: status === 0, seconds: (Date.now() - started) / 1000 });
  }
}
console.log('\n[calendar] results:');
for (const { at, file, passed, seconds } of results)
  console.log(`${at}  ${passed ? 'passed' : 'FAILED'}  ${seconds.toFixed(0).padStart(4)} s  ${file}`);
process.exitCode = results.every((result) => result.passed) ? 0 : 1;
