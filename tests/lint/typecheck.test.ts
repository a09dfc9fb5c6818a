/**
 * The TypeScript compiler over each part of the plugin, counted with the other tests: the
 * contracts, the server, the admin and the player, each with its own tsconfig (as `npm run
 * typecheck` runs them). The server and the admin both compile shared/contracts, so a change to
 * an admin route on one side that the other does not follow fails here; contract-checks/ proves
 * that the checks refuse a mismatch. The compiler runs as a child process, as ESLint does in
 * lint.test.ts.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { ROOT, runNode } from './support/run-node';

jest.setTimeout(300_000);

/** The projects `npm run typecheck` compiles, read from package.json: one list for both. */
const PROJECTS = [...JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')).scripts.typecheck.matchAll(/tsc -p (\S+)/g)].map(
  (match: RegExpMatchArray) => match[1]
);

describe('types', () => {
  it('compiles the contracts, the server, the admin, the player and the contract checks', () => {
    expect(PROJECTS).toEqual(
      expect.arrayContaining([
        'shared/tsconfig.json',
        'server/tsconfig.json',
        'admin/tsconfig.json',
        'player/tsconfig.json',
        'tests/lint/contract-checks/tsconfig.json',
      ])
    );
  });

  it.each(PROJECTS)('%s compiles', (project) => {
    const { status, output } = runNode('node_modules/typescript/bin/tsc', ['-p', project, '--noEmit', '--pretty', 'false']);
    if (status !== 0) throw new Error(`tsc -p ${project}:\n${output}`);
    expect(status).toBe(0);
  });
});
