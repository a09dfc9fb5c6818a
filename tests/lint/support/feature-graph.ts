/**
 * The module graph seen feature by feature: every file under server/src/<feature>/ counts as
 * <feature>, type-only imports too, and a `getService('name')` call counts as an import of the file
 * that defines that service (the registry's hidden edge). The gatherers (services/, controllers/, config/,
 * routes/) and the plugin's root files assemble the features and are left out.
 */
import type { ModuleImport } from './folder-graph';

export const GATHERERS = ['services', 'controllers', 'routes', 'config'];

/** server/src/<feature>/… -> <feature>; null for a root file or a gatherer. */
export function featureOf(file: string): string | null {
  const match = /^server\/src\/([^/]+)\//.exec(file);
  return match && !GATHERERS.includes(match[1]!) ? match[1]! : null;
}

/** The registry's edges: a file that calls getService('name') imports the file that defines that service. */
export function registryImports(files: ReadonlyMap<string, string>, definingFiles: ReadonlyMap<string, string>): ModuleImport[] {
  const found: ModuleImport[] = [];
  for (const [file, text] of files) {
    for (const match of text.matchAll(/getService\('([\w-]+)'\)/g)) {
      const to = definingFiles.get(match[1]!);
      if (to) found.push({ from: file, to, typeOnly: false });
    }
  }
  return found;
}

/**
 * The imports between features, each file standing for its feature's folder (so that
 * folderCycles, which works folder by folder, finds the cycles between features).
 */
export function featureImports(imports: readonly ModuleImport[]): ModuleImport[] {
  return imports.flatMap((item) => {
    const from = featureOf(item.from);
    const to = featureOf(item.to);
    if (!from || !to || from === to) return [];
    // The file's own path, its slashes made colons, as a file of its feature's folder.
    const inFeature = (feature: string, file: string) => `server/src/${feature}/${file.replaceAll('/', ':')}`;
    return [{ from: inFeature(from, item.from), to: inFeature(to, item.to), typeOnly: item.typeOnly }];
  });
}

/**
 * Imports from one feature into another that pass its front door: a feature's files import another
 * only through that feature's `index.ts` (type imports too). The gatherers and the root files, which
 * assemble the features, may reach in.
 */
export function pastFrontDoors(imports: readonly ModuleImport[]): ModuleImport[] {
  return imports.filter((item) => {
    const from = featureOf(item.from);
    const to = featureOf(item.to);
    return from !== null && to !== null && from !== to && item.to !== `server/src/${to}/index.ts`;
  });
}
