import { readFileSync, writeFileSync } from 'node:fs';

/**
 * What the fresh-app check reads from the install page users follow and from npm's output. Pure
 * apart from insertAfterLine, which edits one file the way a user pastes a snippet into it.
 */

/** The page users follow to install the plugin, from the repository's root: it holds every `install-check` block. */
export const INSTALL_PAGE = 'docs/install.md';

/** The first fenced code block after `<!-- install-check:NAME -->` in `page` (named `file` in errors), without its fences. */
export function readmeBlock(page: string, name: string, file = INSTALL_PAGE): string {
  const marker = `<!-- install-check:${name} -->`;
  const at = page.indexOf(marker);
  if (at < 0) throw new Error(`${file} has no ${marker}`);
  const block = /^```[a-z]*\n([\s\S]*?)\n```$/m.exec(page.slice(at + marker.length));
  if (!block) throw new Error(`${file} has no code block after ${marker}`);
  return block[1];
}

/** The environment variables a config snippet reads through Strapi's `env(…)`, `env.int(…)` and the like. */
export function envNamesRead(code: string): Set<string> {
  return new Set([...code.matchAll(/\benv(?:\.[a-z]+)?\(\s*['"]([A-Z0-9_]+)['"]/g)].map((match) => match[1]));
}

/** The packages npm names in its install-script (npm 11 `allowScripts`) and engine warnings. */
export function warnedPackages(npmOutput: string): { installScripts: string[]; engines: string[] } {
  const name = (spec: string) => spec.replace(/@[^@/]+$/, '');
  const installScripts = [...npmOutput.matchAll(/^npm warn install-scripts\s+(\S+@\S+) \(/gm)].map((match) => name(match[1]));
  const engines = [...npmOutput.matchAll(/^npm warn EBADENGINE\s+package: '([^']+)'/gm)].map((match) => name(match[1]));
  return { installScripts: [...new Set(installScripts)], engines: [...new Set(engines)] };
}

/** Puts `snippet` after the first line of `file` matching `line`, as someone pasting it there would. */
export function insertAfterLine(file: string, line: RegExp, snippet: string): void {
  const lines = readFileSync(file, 'utf8').split('\n');
  const at = lines.findIndex((text) => line.test(text));
  if (at < 0) throw new Error(`${file} has no line matching ${line}:\n${lines.join('\n')}`);
  lines.splice(at + 1, 0, snippet);
  writeFileSync(file, lines.join('\n'));
}
