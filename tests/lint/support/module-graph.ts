/** Runs scripts/checks/module-graph.mjs (dependency-cruiser, ESM only) in a child process and reads its JSON. */
import type { ModuleImport } from './folder-graph';
import { runNode } from './run-node';

/** The plugin's own code: the server, the admin panel, the player, and what they share. */
export const SOURCE_ROOTS = ['server/src', 'admin/src', 'player/src', 'shared'];

export interface ModuleGraph {
  files: string[];
  imports: ModuleImport[];
}

/** The graph of the files under `roots` (default: the plugin's own code), paths relative to `cwd`. */
export function readModuleGraph(cwd: string, roots: string[] = SOURCE_ROOTS): ModuleGraph {
  const result = runNode('scripts/checks/module-graph.mjs', roots, cwd);
  if (result.status !== 0) throw new Error(`scripts/checks/module-graph.mjs failed:\n${result.output}`);
  return JSON.parse(result.stdout);
}
