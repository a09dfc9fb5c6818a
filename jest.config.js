/** Six suites: code style (ESLint, Prettier), pure unit tests (no Strapi), the emulator over HTTP, integration/e2e against a real Strapi, and install (a fresh create-strapi app installing the packed plugin as the README says). */
const tsJest = ['ts-jest', { tsconfig: '<rootDir>/tsconfig.json' }];
/** Packages published as ES modules only (the language detector, docs/passage-voices.md): turned to CommonJS like our sources. */
const ESM_PACKAGES = ['franc-min', 'trigram-utils', 'n-gram', 'collapse-white-space'];

const base = {
  // jest's node environment, counting each file's CPU seconds for npm test's list (tests/cpu-environment.js).
  testEnvironment: '<rootDir>/tests/cpu-environment.js',
  transform: {
    '^.+\\.tsx?$': tsJest,
    [`/node_modules/(${ESM_PACKAGES.join('|')})/.+\\.js$`]: ['ts-jest', { tsconfig: { allowJs: true, module: 'commonjs' } }],
  },
  transformIgnorePatterns: [`/node_modules/(?!(${ESM_PACKAGES.join('|')})/)`],
  moduleFileExtensions: ['ts', 'tsx', 'js', 'json'],
};

module.exports = {
  // One plain closing line, `N passed, N failed`, that CI counts.
  reporters: ['default', '<rootDir>/tests/summary-reporter.js'],
  // The longest files first, so that files running side by side end together.
  testSequencer: '<rootDir>/tests/sequencer.js',
  projects: [
    { ...base, displayName: 'lint', testMatch: ['<rootDir>/tests/lint/**/*.test.ts'] },
    { ...base, displayName: 'unit', testMatch: ['<rootDir>/tests/unit/**/*.test.ts'] },
    { ...base, displayName: 'emulator', testMatch: ['<rootDir>/tests/emulator/**/*.test.ts'] },
    { ...base, displayName: 'integration', testMatch: ['<rootDir>/tests/integration/**/*.test.ts'] },
    { ...base, displayName: 'e2e', testMatch: ['<rootDir>/tests/e2e/**/*.test.ts'] },
    { ...base, displayName: 'install', testMatch: ['<rootDir>/tests/install/**/*.test.ts'] },
  ],
};
