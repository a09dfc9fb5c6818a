/** The unit tests of one pure domain, for StrykerJS (scripts/mutation.mjs): MUTATION_TESTS is a regular expression on their paths. */
const path = require('node:path');

const root = path.resolve(__dirname, '../..');
/** The main configuration's transforms (ES-module-only packages turned to CommonJS too), so every domain's tests load here. */
const { transform, transformIgnorePatterns, moduleFileExtensions } = require(path.join(root, 'jest.config.js')).projects[0];

module.exports = {
  rootDir: root,
  testEnvironment: 'node',
  transform,
  transformIgnorePatterns,
  moduleFileExtensions,
  testRegex: `${process.env.MUTATION_TESTS ?? 'tests/unit/'}.*\\.test\\.ts$`,
};
