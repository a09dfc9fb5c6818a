/**
 * Source comments say why; which issue asked for the code is git's to tell. Reads every source file
 * of the server, the admin, the player and the contracts.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '../..');
const SOURCES = ['server/src', 'admin/src', 'player/src', 'shared'];

function sourceFiles(dir: string): string[] {
  return readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const relative = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' || entry.name === 'dist' ? [] : sourceFiles(relative);
    return /\.(ts|tsx|mjs)$/.test(entry.name) ? [relative] : [];
  });
}

/** `file:line` of each comment that names an issue by its number. */
export function issueCitations(file: string, text: string): string[] {
  return text.split('\n').flatMap((line, index) => {
    const comment = /(\/\/.*|\/\*.*|^\s*\*.*)$/.exec(line)?.[0] ?? '';
    return /\bissues?\s*#?\d+\b/i.test(comment) ? [`${file}:${index + 1}`] : [];
  });
}

describe('comments', () => {
  const files = SOURCES.flatMap(sourceFiles);

  it('reads the sources', () => {
    expect(files.length).toBeGreaterThan(200);
  });

  it('no source comment cites an issue', () => {
    expect(files.flatMap((file) => issueCitations(file, readFileSync(path.join(ROOT, file), 'utf8')))).toEqual([]);
  });

  it('tells a citation from a number that is not one', () => {
    expect(issueCitations('a.ts', '// the budget (issue 24)\nconst issue = 3;\n * see issues 23 and 24\n// issue #12')).toEqual([
      'a.ts:1',
      'a.ts:3',
      'a.ts:4',
    ]);
    expect(issueCitations('a.ts', "const label = 'issue 24';\n// 24 issues at most\n/** Ada (#3) */")).toEqual([]);
  });
});
