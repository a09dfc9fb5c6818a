/** A Node script of the repository's toolchain (ESLint, Prettier, tsc, dependency-cruiser) in a child process, as npm scripts run them. */
import { spawnSync } from 'node:child_process';
import path from 'node:path';

export const ROOT = path.resolve(__dirname, '../../..');

export function runNode(script: string, args: string[], cwd = ROOT) {
  const result = spawnSync(process.execPath, [path.resolve(ROOT, script), ...args], { cwd, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  return { status: result.status, stdout: result.stdout, output: `${result.stdout}${result.stderr}` };
}
