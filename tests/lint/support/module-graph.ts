/** Runs scripts/checks/module-graph.mjs (dependency-cruiser, ESM only) in a child process and reads its JSON. */
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import type { ModuleImport } from './folder-graph';

const SCRIPT = path.resolve(__dirname, '../../../scripts/checks/module-graph.mjs');

export interface ModuleGraph {
  files: string[];
  imports: ModuleImport[];
}

/** The graph of the files under `roots` (default: the plugin's own code), paths relative to `cwd`. */
export function readModuleGraph(cwd: string, roots: string[] = []): ModuleGraph {
  const result = spawnSync(process.execPath, [SCRIPT, ...roots], { cwd, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  if (result.status !== 0) throw new Error(`scripts/checks/module-graph.mjs failed:\n${result.stdout}${result.stderr}`);
  return JSON.parse(result.stdout);
}
