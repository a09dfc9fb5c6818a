/** The unit tests of one pure domain, for StrykerJS (scripts/mutation.mjs): MUTATION_TESTS is a regular expression on their paths. */
const path = require('node:path');

const root = path.resolve(__dirname, '../..');
module.exports = {
  rootDir: root,
  testEnvironment: 'node',
  transform: { '^.+\\.tsx?$': ['ts-jest', { tsconfig: path.join(root, 'tsconfig.json') }] },
  moduleFileExtensions: ['ts', 'tsx', 'js', 'json'],
  testRegex: `${process.env.MUTATION_TESTS ?? 'tests/unit/'}.*\\.test\\.ts$`,
};
