/**
 * The TypeScript compiler over each part of the plugin, counted with the other tests: the
 * contracts, the server, the admin and the player, each with its own tsconfig (as `npm run
 * typecheck` runs them). The server and the admin both compile shared/contracts, so a change to
 * an admin route on one side that the other does not follow fails here; contract-checks/ proves
 * that the checks refuse a mismatch. The compiler runs as a child process, as ESLint does in
 * lint.test.ts.
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';

jest.setTimeout(300_000);

const ROOT = path.resolve(__dirname, '../..');
const TSC = path.join(ROOT, 'node_modules/typescript/bin/tsc');

function typecheck(project: string) {
  const result = spawnSync(process.execPath, [TSC, '-p', project, '--noEmit', '--pretty', 'false'], {
    cwd: ROOT,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  return { status: result.status, output: `${result.stdout}${result.stderr}` };
}

describe('types', () => {
  it.each([
    ['the contracts on their own (no Node, no DOM, no Strapi)', 'shared/tsconfig.json'],
    ['the server', 'server/tsconfig.json'],
    ['the admin', 'admin/tsconfig.json'],
    ['the player', 'player/tsconfig.json'],
    ['the contract checks (each mismatch refused)', 'tests/lint/contract-checks/tsconfig.json'],
  ])('%s compiles (%s)', (_part, project) => {
    const { status, output } = typecheck(project);
    if (status !== 0) throw new Error(`tsc -p ${project}:\n${output}`);
    expect(status).toBe(0);
  });
});
