/** Prints jest's totals as one plain line, `N passed, N failed`, the line CI counts. */
class SummaryReporter {
  onRunComplete(_contexts, results) {
    const skipped = results.numPendingTests + results.numTodoTests;
    const failedSuites = results.numRuntimeErrorTestSuites;
    // A suite that crashed before running its tests counts as one failure, so it cannot hide.
    const failed = results.numFailedTests + failedSuites;
    process.stdout.write(`\n${results.numPassedTests} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}\n`);
  }
}
module.exports = SummaryReporter;
