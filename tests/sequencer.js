/**
 * The order jest hands test files to its workers: the longest first, so that the files running side
 * by side (`npm test` runs three at a time) end together instead of one long file starting last. The
 * seconds are those of a full run (test-artifacts/jest-times*.json, which `npm test` writes; update
 * them by hand when the order drifts); a file not listed counts by its size, as jest's own order does.
 */
const fs = require('node:fs');
const path = require('node:path');
const Sequencer = require('@jest/test-sequencer').default;

const ROOT = path.join(__dirname, '..');
const SECONDS = {
  'tests/install/fresh-app.test.ts': 730,
  'tests/integration/database-restart.test.ts': 390,
  'tests/integration/multi-instance.test.ts': 190,
  'tests/e2e/admin.test.ts': 140,
  'tests/integration/narration.test.ts': 125,
  'tests/integration/query-plans.test.ts': 120,
  'tests/integration/triggers.test.ts': 115,
  'tests/e2e/player-insights.test.ts': 100,
  'tests/integration/insights.test.ts': 100,
  'tests/integration/segmented.test.ts': 100,
  'tests/e2e/voices.test.ts': 95,
  'tests/e2e/usage.test.ts': 95,
  'tests/integration/service-errors.test.ts': 90,
  'tests/integration/s3-storage.test.ts': 90,
  'tests/integration/transcription.test.ts': 90,
  'tests/e2e/admin-segmented.test.ts': 80,
  'tests/e2e/listening.test.ts': 75,
  'tests/integration/credits.test.ts': 75,
  'tests/integration/slow-media.test.ts': 70,
  'tests/e2e/webhooks.test.ts': 65,
  'tests/e2e/player.test.ts': 65,
  'tests/integration/webhooks.test.ts': 65,
  'tests/integration/restart.test.ts': 60,
  'tests/integration/feeds.test.ts': 55,
  'tests/e2e/transcribe.test.ts': 50,
  'tests/integration/access.test.ts': 45,
  'tests/integration/budget.test.ts': 35,
};
/** Seconds for a file not listed: about one a kilobyte of test code, below the listed ones. */
const bySize = (file) => Math.min(30, fs.statSync(file).size / 1024);

class LongestFirst extends Sequencer {
  sort(tests) {
    const seconds = (test) => SECONDS[path.relative(ROOT, test.path).split(path.sep).join('/')] ?? bySize(test.path);
    return [...tests].sort((a, b) => seconds(b) - seconds(a));
  }
}

module.exports = LongestFirst;
