/**
 * docs/architecture.md draws one article's journey through the folders; a path in it that does
 * not exist (a file moved, renamed or split) would send a newcomer nowhere. Paths are written
 * from the repository's root (server/, admin/, player/, shared/, tests/, docs/) or, shorter,
 * from server/src.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '../..');
const ROOT_FOLDERS = ['server/', 'admin/', 'player/', 'shared/', 'tests/', 'docs/', 'scripts/', 'emulator/', 'playground/'];

/** Every file or folder path the note names: words with a slash ending in a source extension or a slash. */
function pathsNamed(markdown: string): string[] {
  const found = markdown.match(/(?<![\w/.:-])[a-z][\w.-]*(?:\/[\w.-]+)*\/(?:[\w.-]+\.(?:ts|tsx|mjs|cjs|md)|)(?![\w/])/g) ?? [];
  return [...new Set(found)];
}

function resolved(named: string): string {
  return ROOT_FOLDERS.some((folder) => named.startsWith(folder)) ? path.join(ROOT, named) : path.join(ROOT, 'server/src', named);
}

describe('docs/architecture.md', () => {
  const note = readFileSync(path.join(ROOT, 'docs/architecture.md'), 'utf8');
  const named = pathsNamed(note);

  it('names the files of each step of the journey', () => {
    for (const step of [
      'narration/narrate-on-publish.ts',
      'queue/rows/narration-rows.ts',
      'queue/worker/submit-step.ts',
      'queue/callback/callback-receiver.ts',
      'queue/worker/store-step.ts',
      'narration/public.controller.ts',
    ]) {
      expect(named).toContain(step);
    }
  });

  it('follows one article from publish to listener through at most twelve files', () => {
    const journey = note.slice(note.indexOf('## One article'), note.indexOf('##', note.indexOf('## One article') + 2));
    const files = pathsNamed(journey.slice(0, journey.indexOf('```', journey.indexOf('```') + 3))).filter((named) => !named.endsWith('/'));
    expect(files.length).toBeGreaterThanOrEqual(10);
    expect(files.length).toBeLessThanOrEqual(12);
  });

  it('has a glossary with the words the code uses', () => {
    const glossary = note.slice(note.indexOf('## Glossary'));
    for (const word of [
      'narration',
      'narration row',
      'part',
      'version',
      'article id',
      'listening',
      'ledger entry',
      'lease',
      'type settings',
      'check',
      'passage',
      'background loop',
    ]) {
      expect(glossary).toMatch(new RegExp(`^\\| ${word} \\|`, 'm'));
    }
  });

  it("names every folder of server/src in its folder tables, and CONTRIBUTING.md's layout does too", () => {
    const folders = readdirSync(path.join(ROOT, 'server/src'), { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name);
    expect(folders.length).toBeGreaterThan(20);
    const tables = note.slice(note.indexOf('## Folders'));
    expect(folders.filter((folder) => !tables.includes(`| \`server/src/${folder}/\` |`))).toEqual([]);
    const contributing = readFileSync(path.join(ROOT, 'CONTRIBUTING.md'), 'utf8');
    const layout = contributing.slice(
      contributing.indexOf('server/src/\n'),
      contributing.indexOf('shared/contracts/', contributing.indexOf('## Layout'))
    );
    expect(folders.filter((folder) => !new RegExp(`(^|\\s)${folder}/`).test(layout))).toEqual([]);
  });

  it('names only paths that exist', () => {
    expect(named.length).toBeGreaterThan(40);
    expect(named.filter((candidate) => !existsSync(resolved(candidate)))).toEqual([]);
  });

  it('tells a missing path from an existing one', () => {
    expect(pathsNamed('see `queue/worker/worker.ts` and narration/domain/ then /api/speech/x and a/b.json')).toEqual([
      'queue/worker/worker.ts',
      'narration/domain/',
    ]);
    expect(existsSync(resolved('narration/no-such-step.ts'))).toBe(false);
    expect(resolved('shared/contracts/')).toBe(path.join(ROOT, 'shared/contracts/'));
    expect(resolved('scripts/bench-scale.mjs')).toBe(path.join(ROOT, 'scripts/bench-scale.mjs'));
    expect(resolved('queue/worker/worker.ts')).toBe(path.join(ROOT, 'server/src/queue/worker/worker.ts'));
  });
});
