// ESLint (flat config): typescript-eslint's recommended rules, React hooks, no import cycles;
// formatting is Prettier's alone (eslint-config-prettier turns off the rules it would fight).
import js from '@eslint/js';
import prettier from 'eslint-config-prettier';
import importX, { createNodeResolver } from 'eslint-plugin-import-x';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    ignores: [
      '**/dist/**',
      '**/node_modules/**',
      'playground/.strapi/**',
      'playground/types/**',
      'playground/public/**',
      '.demo/**',
      'test-artifacts/**',
      'coverage/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    plugins: { import: importX },
    settings: { 'import-x/resolver-next': [createNodeResolver({ extensions: ['.ts', '.tsx', '.js', '.mjs', '.cjs', '.json'] })] },
    rules: {
      'import/no-cycle': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
    },
  },
  {
    files: ['admin/src/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    languageOptions: { globals: globals.browser },
    rules: { ...reactHooks.configs.recommended.rules },
  },
  {
    // The <speech-narration> web component runs in browsers.
    files: ['player/src/**/*.ts'],
    languageOptions: { globals: globals.browser },
  },
  {
    files: [
      'server/src/**/*.ts',
      'tests/**/*.ts',
      'scripts/**/*.{mjs,cjs,js}',
      'emulator/**/*.{mjs,js}',
      'playground/**/*.{ts,js,cjs}',
      '*.{js,mjs,cjs}',
    ],
    languageOptions: { globals: { ...globals.node } },
  },
  {
    // A function says one thing: a factory past this splits into the concerns it holds.
    files: ['server/src/**/*.ts'],
    rules: { 'max-lines-per-function': ['error', { max: 80, skipBlankLines: true, skipComments: true }] },
  },
  {
    // The plugin's zod is whichever of 3.25+ or 4 the app resolves (package.json): only the
    // versioned entries give one API in both; bare 'zod' is the v3 API in one and v4 in the other.
    files: ['server/src/**/*.ts', 'tests/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { paths: [{ name: 'zod', message: "Import 'zod/v3' (or 'zod/v4'): bare 'zod' changes API with the version the app resolves." }] },
      ],
    },
  },
  {
    files: ['tests/**/*.{ts,js}'],
    languageOptions: { globals: { ...globals.node, ...globals.jest, ...globals.browser } },
    // Tests read untyped JSON answers (HTTP bodies, database rows) and poke at fakes; typing every
    // one would add noise, not safety. The plugin's own code (server/, admin/) keeps the rule.
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    // CommonJS entry points and scripts.
    files: ['**/*.{js,cjs}'],
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  prettier
);
