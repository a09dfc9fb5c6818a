/** Service names against the files that define them: a name says where its service lives. */
import path from 'node:path';

export interface Registration {
  /** The name the service is registered under (services/index.ts). */
  name: string;
  /** The file that defines its factory. */
  file: string;
}

/** Whether `file` is named `name`: `name.ts`, `name.service.ts`, or `name/service.ts` and `name/index.ts`. */
export function namedAfter({ name, file }: Registration): boolean {
  const base = path.posix.basename(file);
  if (base === 'service.ts' || base === 'index.ts') return path.posix.basename(path.posix.dirname(file)) === name;
  return base === `${name}.ts` || base === `${name}.service.ts`;
}

/** The registrations whose name is not their file's, as `name -> file` lines. */
export function misnamed(registrations: readonly Registration[]): string[] {
  return registrations.filter((registration) => !namedAfter(registration)).map(({ name, file }) => `${name} -> ${file}`);
}

/** The file under `files` (path -> text) that declares `export function <factory>`; null when none does. */
export function definingFile(files: ReadonlyMap<string, string>, factory: string): string | null {
  const declaration = new RegExp(`^export (?:async )?function ${factory}\\b`, 'm');
  for (const [file, text] of files) if (declaration.test(text)) return file;
  return null;
}
