/**
 * The checks of folders.test.ts on small made-up inputs, so that each is seen to fail when it should:
 * a folder cycle is found and named with its files, a file over the limit is listed.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { filesOverLimit, filesUnder, lineCount } from './support/file-size';
import { describeCycles, folderCycles, folderEdges, importsOutside, type ModuleImport } from './support/folder-graph';
import { readModuleGraph } from './support/module-graph';
import { featureImports, featureOf, pastFrontDoors, registryImports } from './support/feature-graph';
import { definingFile, misnamed } from './support/registry-names';

const use = (from: string, to: string, typeOnly = false): ModuleImport => ({ from, to, typeOnly });

/** A folder in the system's temporary directory with these files, removed after `use`. */
function withFiles(files: Record<string, string>, use: (root: string) => void): void {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'lint-checks-'));
  try {
    for (const [file, text] of Object.entries(files)) {
      fs.mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
      fs.writeFileSync(path.join(root, file), text);
    }
    use(root);
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
}

describe('module graph (dependency-cruiser)', () => {
  jest.setTimeout(60_000);

  it('reads imports between files, type-only ones marked, packages and Node modules left out', () => {
    withFiles(
      {
        'src/a/one.ts': "import type { Two } from '../b/two';\nimport { three } from '../b/three';\nexport const one: Two = three;\n",
        'src/b/two.ts': "import path from 'node:path';\nexport type Two = number;\nexport const sep = path.sep;\n",
        'src/b/three.ts':
          "import { type Two } from './two';\nimport { z } from 'zod';\nexport const three: Two = 3;\nexport const schema = z.number();\n",
        'src/c/four.ts': "export type Four = import('../a/one').Nothing;\n",
      },
      (root) => {
        const graph = readModuleGraph(root, ['src']);
        expect(graph.files).toEqual(['src/a/one.ts', 'src/b/three.ts', 'src/b/two.ts', 'src/c/four.ts']);
        const sorted = [...graph.imports].sort((x, y) => `${x.from} ${x.to}`.localeCompare(`${y.from} ${y.to}`));
        expect(sorted).toEqual([
          use('src/a/one.ts', 'src/b/three.ts'),
          use('src/a/one.ts', 'src/b/two.ts', true),
          use('src/b/three.ts', 'src/b/two.ts', true),
          use('src/c/four.ts', 'src/a/one.ts', true),
        ]);
      }
    );
  });

  it('gives the folder check what it needs to see a cycle made by a type-only import', () => {
    withFiles(
      {
        'src/feature/service.ts': "import { rule } from './domain/rule';\nexport const service = rule;\n",
        'src/feature/domain/rule.ts': "import type { Service } from '../types';\nexport const rule = 1 as Service;\n",
        'src/feature/types.ts': "import { service } from './service';\nexport type Service = typeof service;\n",
      },
      (root) => {
        const cycles = folderCycles(readModuleGraph(root, ['src']).imports);
        expect(cycles.map((cycle) => cycle.path)).toEqual([['src/feature', 'src/feature/domain', 'src/feature']]);
        expect(describeCycles(cycles)).toContain('src/feature/domain/rule.ts imports src/feature/types.ts (type only)');
      }
    );
  });
});

describe('folder cycles', () => {
  it('finds two folders that import each other, with the files that do', () => {
    const cycles = folderCycles([
      use('src/a/one.ts', 'src/b/two.ts'),
      use('src/b/two.ts', 'src/a/three.ts'),
      use('src/b/two.ts', 'src/c/four.ts'),
    ]);
    expect(cycles).toEqual([
      {
        path: ['src/a', 'src/b', 'src/a'],
        folders: ['src/a', 'src/b'],
        edges: [
          { from: 'src/a', to: 'src/b', imports: [use('src/a/one.ts', 'src/b/two.ts')] },
          { from: 'src/b', to: 'src/a', imports: [use('src/b/two.ts', 'src/a/three.ts')] },
        ],
      },
    ]);
    const words = describeCycles(cycles);
    expect(words).toContain('Folder cycle: src/a -> src/b -> src/a');
    expect(words).toContain('src/a/one.ts imports src/b/two.ts');
    expect(words).toContain('src/b/two.ts imports src/a/three.ts');
    expect(words).not.toContain('src/c');
  });

  it('counts type-only imports', () => {
    const cycles = folderCycles([use('src/a/one.ts', 'src/b/two.ts'), use('src/b/two.ts', 'src/a/one.ts', true)]);
    expect(cycles.map((cycle) => cycle.folders)).toEqual([['src/a', 'src/b']]);
    expect(describeCycles(cycles)).toContain('src/b/two.ts imports src/a/one.ts (type only)');
  });

  it('finds a cycle round three folders, though no two import each other', () => {
    const cycles = folderCycles([use('x/a/1.ts', 'x/b/1.ts'), use('x/b/1.ts', 'x/c/1.ts'), use('x/c/2.ts', 'x/a/2.ts')]);
    expect(cycles.map((cycle) => cycle.path)).toEqual([['x/a', 'x/b', 'x/c', 'x/a']]);
    expect(describeCycles(cycles)).toContain('all of these reach each other: x/a, x/b, x/c');
  });

  it('takes a folder and its subfolder as two nodes', () => {
    // The folder imports its subfolder, and the subfolder's file imports a file of its parent: a cycle.
    const cycles = folderCycles([
      use('feature/service.ts', 'feature/domain/rule.ts'),
      use('feature/domain/rule.ts', 'feature/repository.ts', true),
    ]);
    expect(cycles.map((cycle) => cycle.folders)).toEqual([['feature', 'feature/domain']]);
    // Only downward: no cycle, and imports within one folder are no edge.
    expect(
      folderCycles([use('feature/service.ts', 'feature/domain/rule.ts'), use('feature/domain/rule.ts', 'feature/domain/text.ts')])
    ).toEqual([]);
    expect(folderEdges([use('feature/domain/rule.ts', 'feature/domain/text.ts')])).toEqual([]);
  });

  it('finds none in a graph without one, and each cycle once among several', () => {
    expect(folderCycles([use('a/1.ts', 'b/1.ts'), use('b/1.ts', 'c/1.ts'), use('a/1.ts', 'c/1.ts')])).toEqual([]);
    const cycles = folderCycles([
      use('a/1.ts', 'b/1.ts'),
      use('b/1.ts', 'a/1.ts'),
      use('b/1.ts', 'c/1.ts'),
      use('c/1.ts', 'd/1.ts'),
      use('d/1.ts', 'c/1.ts'),
    ]);
    expect(cycles.map((cycle) => cycle.folders)).toEqual([
      ['a', 'b'],
      ['c', 'd'],
    ]);
  });
});

describe('imports leaving allowed folders', () => {
  it('lists the imports from the checked folders (and their subfolders) to any other', () => {
    const imports = [
      use('s/infra/a.ts', 's/infra/b.ts'),
      use('s/infra/deep/c.ts', 's/base/d.ts'),
      use('s/infra/a.ts', 's/feature/e.ts', true),
      use('s/feature/e.ts', 's/infra/a.ts'),
    ];
    expect(importsOutside(imports, { from: ['s/infra'], allowed: ['s/infra', 's/base'] })).toEqual([
      use('s/infra/a.ts', 's/feature/e.ts', true),
    ]);
  });
});

describe('file size', () => {
  it('counts lines as wc -l: newline characters', () => {
    expect(lineCount('')).toBe(0);
    expect(lineCount('one line, no newline')).toBe(0);
    expect(lineCount('a\n')).toBe(1);
    expect(lineCount('a\r\nb\n\n')).toBe(3);
  });

  it('lists the files over the limit, longest first', () => {
    const lines = (count: number) => 'x\n'.repeat(count);
    const files = [
      { path: 'ok.ts', text: lines(450) },
      { path: 'long.ts', text: lines(451) },
      { path: 'longer.ts', text: `${lines(600)}no newline at the end` },
    ];
    expect(filesOverLimit(files, 450)).toEqual([
      { path: 'longer.ts', lines: 600 },
      { path: 'long.ts', lines: 451 },
    ]);
    expect(filesOverLimit(files.slice(0, 1), 450)).toEqual([]);
  });

  it('finds every file under the folders, subfolders included', () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'file-size-'));
    try {
      fs.mkdirSync(path.join(root, 'src/feature/domain'), { recursive: true });
      fs.writeFileSync(path.join(root, 'src/index.ts'), '');
      fs.writeFileSync(path.join(root, 'src/feature/domain/rule.ts'), '');
      fs.writeFileSync(path.join(root, 'elsewhere.ts'), '');
      expect(filesUnder(root, ['src', 'missing'])).toEqual(['src/feature/domain/rule.ts', 'src/index.ts']);
    } finally {
      fs.rmSync(root, { recursive: true, force: true });
    }
  });
});

describe('registry names', () => {
  it('takes a name as its file only where the file is named after it', () => {
    expect(misnamed([{ name: 'settings', file: 'server/src/settings/service.ts' }])).toEqual([]);
    expect(misnamed([{ name: 'speech-client', file: 'server/src/speech-client/index.ts' }])).toEqual([]);
    expect(misnamed([{ name: 'narration-rows', file: 'server/src/queue/rows/narration-rows.ts' }])).toEqual([]);
    expect(misnamed([{ name: 'ledger', file: 'server/src/credits/ledger.service.ts' }])).toEqual([]);
    expect(
      misnamed([
        { name: 'narration-views', file: 'server/src/narration/public-views.service.ts' },
        { name: 'jobs', file: 'server/src/jobs/repository.ts' },
        { name: 'voices', file: 'server/src/settings/service.ts' },
      ])
    ).toEqual([
      'narration-views -> server/src/narration/public-views.service.ts',
      'jobs -> server/src/jobs/repository.ts',
      'voices -> server/src/settings/service.ts',
    ]);
  });

  it('finds the file that declares a factory', () => {
    const files = new Map([
      ['a.ts', 'export const createA = () => 1;\nfunction createB() {}\n'],
      ['b.ts', 'export function createBee() {}\nexport function createB(deps: unknown) {}\n'],
    ]);
    expect(definingFile(files, 'createB')).toBe('b.ts');
    expect(definingFile(files, 'createA')).toBeNull();
  });
});

describe('feature graph', () => {
  it('counts a file as its feature, leaves the gatherers out, and sees a getService lookup as an import', () => {
    expect(featureOf('server/src/narration/domain/article.ts')).toBe('narration');
    expect(featureOf('server/src/services/index.ts')).toBeNull();
    expect(featureOf('server/src/bootstrap.ts')).toBeNull();
    const files = new Map([['server/src/access/guard.ts', "const x = getService('content');\nconst y = getService('unknown');"]]);
    const lookups = registryImports(files, new Map([['content', 'server/src/narration/content.ts']]));
    expect(lookups).toEqual([{ from: 'server/src/access/guard.ts', to: 'server/src/narration/content.ts', typeOnly: false }]);
    const cycles = folderCycles(
      featureImports([
        ...lookups,
        use('server/src/narration/domain/a.ts', 'server/src/access/rules.ts', true),
        use('server/src/services/index.ts', 'server/src/access/rules.ts'),
      ])
    );
    expect(cycles.map((cycle) => cycle.folders)).toEqual([['server/src/access', 'server/src/narration']]);
  });

  it("finds an import past another feature's front door, and lets through the front door, the feature itself and the gatherers", () => {
    const past = use('server/src/narration/content.ts', 'server/src/voices/resolve.ts', true);
    expect(
      pastFrontDoors([
        past,
        use('server/src/narration/content.ts', 'server/src/voices/index.ts'),
        use('server/src/narration/content.ts', 'server/src/narration/domain/article.ts'),
        use('server/src/services/index.ts', 'server/src/voices/service.ts'),
        use('server/src/bootstrap.ts', 'server/src/settings/problems.ts'),
      ])
    ).toEqual([past]);
  });
});
