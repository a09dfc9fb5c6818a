/**
 * The module graph of the plugin's own code, as dependency-cruiser reads it: TypeScript before
 * compilation, so type-only imports count too. Printed as JSON ({ files, imports }) for the checks in
 * tests/lint, which run it as a child process: dependency-cruiser is ESM only and jest runs the tests
 * as CommonJS. Run from the repository's root: `node scripts/checks/module-graph.mjs [folder...]`
 * (default: SOURCE_ROOTS).
 */
import { existsSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { cruise } from 'dependency-cruiser';

/** The plugin's own code: the server, the admin panel, the player, and what they share. */
export const SOURCE_ROOTS = ['server/src', 'admin/src', 'player/src', 'shared'];

/** `import type`, `import { type A }` and `export type … from` are "type-only"; a type written `import('x').T` is "type-import". */
const TYPE_ONLY = new Set(['type-only', 'type-import']);

/**
 * Every file under the roots, and every import from one of them to another (packages and Node's own
 * modules left out): `{ from, to, typeOnly }`, paths relative to the current directory.
 */
export async function moduleGraph(roots = SOURCE_ROOTS.filter((root) => existsSync(root))) {
  const result = await cruise(roots, {
    tsPreCompilationDeps: true,
    doNotFollow: { path: 'node_modules' },
    exclude: { path: ['node_modules', '(^|/)dist/'] },
    outputType: 'json',
  });
  const { modules } = JSON.parse(result.output);
  const inRoots = (file) => roots.some((root) => file === root || file.startsWith(`${root}/`));
  const files = modules.map((module) => module.source).filter(inRoots);
  const known = new Set(files);
  const imports = modules
    .filter((module) => known.has(module.source))
    .flatMap((module) =>
      module.dependencies
        .filter((dependency) => known.has(dependency.resolved))
        .map((dependency) => ({
          from: module.source,
          to: dependency.resolved,
          typeOnly: dependency.dependencyTypes.some((type) => TYPE_ONLY.has(type)),
        }))
    );
  return { files: files.sort(), imports };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const roots = process.argv.slice(2);
  process.stdout.write(JSON.stringify(await moduleGraph(roots.length ? roots : undefined)));
}
