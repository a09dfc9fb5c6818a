/**
 * The shape of the code, counted with the other tests: no cycle between folders, infrastructure that
 * knows no feature, and no file over 450 lines. The module graph is dependency-cruiser's
 * (scripts/checks/module-graph.mjs, run as a child process: it is ESM only); the checks on it are
 * tests/lint/support, whose own tests are in checks.test.ts.
 */
import fs from 'node:fs';
import path from 'node:path';
import { filesOverLimit, filesUnder } from './support/file-size';
import { describeCycles, folderCycles, importsOutside } from './support/folder-graph';
import { readModuleGraph, SOURCE_ROOTS, type ModuleGraph } from './support/module-graph';
import { featureImports, pastFrontDoors, registryImports } from './support/feature-graph';
import { definingFile, misnamed } from './support/registry-names';
import { FACTORIES } from '../../server/src/services';

jest.setTimeout(120_000);

const ROOT = path.resolve(__dirname, '../..');

/** The registry the plugin looks its services up in (`getService`): services/index.ts fills in its types. */
const SERVICE_REGISTRY = 'server/src/utils/index.ts';

/** Building blocks that features use and that use no feature: they may import each other and shared/ only. */
const INFRASTRUCTURE = ['download', 'audio', 'speech-client', 'subtitles', 'http', 'utils'].map((folder) => `server/src/${folder}`);

/** The server's TypeScript sources by path. */
const serverSources = () =>
  new Map(
    filesUnder(ROOT, ['server/src'])
      .filter((file) => file.endsWith('.ts'))
      .map((file) => [file, fs.readFileSync(path.join(ROOT, file), 'utf8')])
  );

const MAX_LINES = 450;
const SIZE_CHECKED = SOURCE_ROOTS;

describe('folders', () => {
  let graph: ModuleGraph;
  beforeAll(() => {
    graph = readModuleGraph(ROOT);
  });

  it('the module graph covers the code (so that the checks below look at something)', () => {
    for (const root of SOURCE_ROOTS) expect(graph.files.some((file) => file.startsWith(`${root}/`))).toBe(true);
    expect(graph.imports).toContainEqual({
      from: 'server/src/download/body-inspector.ts',
      to: 'server/src/audio/index.ts',
      typeOnly: false,
    });
  });

  it('the service registry imports nothing of the service table, not even its types (the table fills them in)', () => {
    expect(graph.imports.some((item) => item.from === SERVICE_REGISTRY)).toBe(true);
    expect(graph.imports.filter((item) => item.from === SERVICE_REGISTRY && item.to.startsWith('server/src/services/'))).toEqual([]);
  });

  it('no two folders import each other, directly or round a cycle (type-only imports count)', () => {
    const cycles = folderCycles(graph.imports);
    if (cycles.length > 0) throw new Error(`${cycles.length} folder cycle(s):\n\n${describeCycles(cycles)}`);
    expect(cycles).toEqual([]);
  });

  it('the queue imports nothing of narration (narration hands it describeLive)', () => {
    const queueFiles = graph.imports.filter((item) => item.from.startsWith('server/src/queue/'));
    expect(queueFiles.length).toBeGreaterThan(30);
    expect(
      queueFiles.filter((item) => item.to.startsWith('server/src/narration/')).map((item) => `${item.from} imports ${item.to}`)
    ).toEqual([]);
  });

  it('infrastructure (download, audio, speech-client, subtitles, http, utils) imports no feature', () => {
    const allowed = [...INFRASTRUCTURE, 'shared'];
    const offending = importsOutside(graph.imports, { from: INFRASTRUCTURE, allowed });
    if (offending.length > 0) {
      throw new Error(`Infrastructure importing a feature:\n${offending.map((item) => `  ${item.from} imports ${item.to}`).join('\n')}`);
    }
    expect(offending).toEqual([]);
  });

  it("a feature imports another only through its front door, the other's index.ts (type imports too)", () => {
    const past = pastFrontDoors(graph.imports);
    expect(graph.imports.filter((item) => item.to.endsWith('/index.ts')).length).toBeGreaterThan(100);
    if (past.length > 0)
      throw new Error(`Imports past a front door:\n${past.map((item) => `  ${item.from} imports ${item.to}`).join('\n')}`);
    expect(past).toEqual([]);
  });

  it('features form no cycle, counting type imports and getService lookups', () => {
    const files = serverSources();
    const defining = new Map(Object.entries(FACTORIES).map(([name, factory]) => [name, definingFile(files, factory.name) ?? '']));
    const lookups = registryImports(files, defining);
    expect(lookups.length).toBeGreaterThan(50);
    const cycles = folderCycles(featureImports([...graph.imports, ...lookups]));
    if (cycles.length > 0) throw new Error(`Features in a cycle:\n\n${describeCycles(cycles)}`);
    expect(cycles).toEqual([]);
  });
});

describe('service registry', () => {
  it('names each service after the file that defines it', () => {
    const files = serverSources();
    const registrations = Object.entries(FACTORIES).map(([name, factory]) => ({
      name,
      file: definingFile(files, factory.name) ?? '(not found)',
    }));
    expect(registrations.length).toBeGreaterThan(20);
    expect(misnamed(registrations)).toEqual([]);
  });
});

describe('file size', () => {
  it(`no file in ${SIZE_CHECKED.join(', ')} is over ${MAX_LINES} lines`, () => {
    const files = filesUnder(ROOT, SIZE_CHECKED);
    expect(files.length).toBeGreaterThan(100);
    const over = filesOverLimit(
      files.map((file) => ({ path: file, text: fs.readFileSync(path.join(ROOT, file), 'utf8') })),
      MAX_LINES
    );
    if (over.length > 0) {
      throw new Error(`Files over ${MAX_LINES} lines (wc -l):\n${over.map((file) => `  ${file.path}: ${file.lines}`).join('\n')}`);
    }
    expect(over).toEqual([]);
  });
});
