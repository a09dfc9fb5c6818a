/**
 * The module graph of the given folders, as dependency-cruiser reads it: TypeScript before
 * compilation, so type-only imports count too. Printed as JSON ({ files, imports }) for the checks in
 * tests/lint, which run it as a child process (tests/lint/support/module-graph.ts names the plugin's
 * folders): dependency-cruiser is ESM only and jest runs the tests as CommonJS.
 * `node scripts/checks/module-graph.mjs <folder>...`, from the directory the folders are in.
 */
import { cruise } from 'dependency-cruiser';

/** `import type`, `import { type A }` and `export type … from` are "type-only"; a type written `import('x').T` is "type-import". */
const TYPE_ONLY = new Set(['type-only', 'type-import']);

const roots = process.argv.slice(2);
if (roots.length === 0) throw new Error('usage: node scripts/checks/module-graph.mjs <folder>...');

const result = await cruise(roots, {
  tsPreCompilationDeps: true,
  exclude: { path: ['node_modules', '(^|/)dist/'] },
  outputType: 'json',
});
const { modules } = JSON.parse(result.output);
const inRoots = (file) => roots.some((root) => file === root || file.startsWith(`${root}/`));
// Every file under the roots, and every import from one of them to another (packages and Node's
// own modules left out), paths relative to the current directory.
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
process.stdout.write(JSON.stringify({ files: files.sort(), imports }));
