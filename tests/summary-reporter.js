/**
 * Prints jest's totals as one plain line, `N passed, N failed`, the line CI counts; also writes it
 * to test-artifacts/jest-totals.txt (or JEST_TOTALS_FILE: scripts/test.mjs adds up its runs) so
 * `.ci/run` can end its output with it. Each test file's seconds go beside it (JEST_TIMES_FILE, or
 * jest-times.json), for scripts/test.mjs's list of the slowest.
 */
const fs = require('node:fs');
const path = require('node:path');

class SummaryReporter {
  onRunComplete(_contexts, results) {
    const skipped = results.numPendingTests + results.numTodoTests;
    const failedSuites = results.numRuntimeErrorTestSuites;
    // A suite that crashed before running its tests counts as one failure, so it cannot hide.
    const failed = results.numFailedTests + failedSuites;
    const totals = `${results.numPassedTests} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`;
    process.stdout.write(`\n${totals}\n`);
    const file = process.env.JEST_TOTALS_FILE ?? path.join(__dirname, '..', 'test-artifacts', 'jest-totals.txt');
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, `${totals}\n`);
    const root = path.join(__dirname, '..');
    const times = results.testResults.map((result) => [
      path.relative(root, result.testFilePath),
      Math.max(0, (result.perfStats.end - result.perfStats.start) / 1000),
    ]);
    fs.writeFileSync(process.env.JEST_TIMES_FILE ?? path.join(path.dirname(file), 'jest-times.json'), JSON.stringify(times));
  }
}
module.exports = SummaryReporter;
