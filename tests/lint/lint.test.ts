/**
 * The repository's code style, counted with the other tests: ESLint (typescript-eslint, React
 * hooks, no import cycles; eslint.config.mjs) and Prettier (.prettierrc.json) over the whole tree,
 * with zero problems and zero warnings. They run as child processes, as `npm run lint` runs them:
 * ESLint loads its ESM config itself, outside jest's module system.
 */
import { runNode as run } from './support/run-node';

jest.setTimeout(180_000);

describe('code style', () => {
  it('ESLint finds no problem and no warning', () => {
    const { status, output } = run('node_modules/eslint/bin/eslint.js', ['.', '--max-warnings', '0']);
    if (status !== 0) throw new Error(`ESLint:\n${output}`);
    expect(status).toBe(0);
  });

  it('every file is formatted by Prettier', () => {
    const { status, output } = run('node_modules/prettier/bin/prettier.cjs', ['--check', '.']);
    if (status !== 0) throw new Error(`Prettier (npx prettier --write . fixes it):\n${output}`);
    expect(status).toBe(0);
  });
});
