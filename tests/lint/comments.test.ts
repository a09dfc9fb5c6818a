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

/** Comment lines (`//`, `/*` and inside a block) over non-blank lines. */
export function commentShare(texts: readonly string[]): { comments: number; lines: number } {
  let comments = 0;
  let lines = 0;
  for (const text of texts) {
    let inBlock = false;
    for (const raw of text.split('\n')) {
      const line = raw.trim();
      if (!line) continue;
      lines += 1;
      if (inBlock || line.startsWith('//') || line.startsWith('/*')) {
        comments += 1;
        inBlock = inBlock ? !line.includes('*/') : line.startsWith('/*') && !line.includes('*/');
      }
    }
  }
  return { comments, lines };
}

describe('comments', () => {
  const files = SOURCES.flatMap(sourceFiles);

  it('reads the sources', () => {
    expect(files.length).toBeGreaterThan(200);
  });

  it('no source comment cites an issue', () => {
    expect(files.flatMap((file) => issueCitations(file, readFileSync(path.join(ROOT, file), 'utf8')))).toEqual([]);
  });

  it("are at most 12 % of the server's lines: the code says what, a comment says why", () => {
    const server = files.filter((file) => file.startsWith('server/src'));
    const { comments, lines } = commentShare(server.map((file) => readFileSync(path.join(ROOT, file), 'utf8')));
    expect(lines).toBeGreaterThan(10_000);
    expect(comments / lines).toBeLessThanOrEqual(0.12);
  });

  it('counts comment lines, in blocks too', () => {
    expect(commentShare(['// a\nconst x = 1;\n\n/**\n * b\n */\nconst y = 2; // c\n/* d */\nz();'])).toEqual({ comments: 5, lines: 8 });
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
