/**
 * Prints jest's totals as one plain line, `N passed, N failed`, the line CI counts; also writes it
 * to test-artifacts/jest-totals.txt (or JEST_TOTALS_FILE: scripts/test.mjs adds up two runs) so
 * `.ci/run` can end its output with it.
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
  }
}
module.exports = SummaryReporter;
