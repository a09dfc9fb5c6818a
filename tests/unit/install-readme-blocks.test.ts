import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { envNamesRead, INSTALL_PAGE, insertAfterLine, readmeBlock, warnedPackages } from '../install/readme-blocks';

/** The readers the fresh-app check (tests/install) uses on the install page (docs/install.md) and on npm's output. */

const README = readFileSync(path.resolve(__dirname, '..', '..', INSTALL_PAGE), 'utf8');

describe('README blocks for the fresh-app check', () => {
  it('finds each marked block, and says which marker is missing', () => {
    expect(readmeBlock('x\n<!-- install-check:a -->\n```ts\nfoo: 1,\n```\n```ts\nbar\n```', 'a')).toBe('foo: 1,');
    expect(() => readmeBlock('nothing here', 'a')).toThrow('docs/install.md has no <!-- install-check:a -->');
    expect(() => readmeBlock('nothing here', 'a', 'README.md')).toThrow('README.md has no <!-- install-check:a -->');
    for (const name of ['pack', 'env', 'plugins-key', 'server-url', 'plugins-file-ts', 'plugins-file-js', 'build']) {
      expect(readmeBlock(README, name).length).toBeGreaterThan(0);
    }
    expect(readmeBlock(README, 'plugins-key').trimStart()).toMatch(/^speech: \{/);
  });

  it('reads the variable names a snippet passes to env and its helpers', () => {
    expect(envNamesRead("a: env('A'), b: env.int('B_2', 3), c: env.array(\"C\", []), d: process.env.D, e: myenv('E')")).toEqual(
      new Set(['A', 'B_2', 'C'])
    );
  });

  it('names the packages of npm 11 install-script warnings and of engine warnings, without versions', () => {
    const output = [
      'npm warn EBADENGINE Unsupported engine {',
      "npm warn EBADENGINE   package: 'preferred-pm@5.0.0',",
      "npm warn EBADENGINE   required: { node: '>=22.13' },",
      'npm warn EBADENGINE }',
      'npm warn install-scripts 3 packages have install scripts not yet covered by allowScripts:',
      'npm warn install-scripts   better-sqlite3@12.8.0 (install: prebuild-install || node-gyp rebuild --release)',
      'npm warn install-scripts   @swc/core@1.16.22 (postinstall: node postinstall.js)',
      'npm warn install-scripts   esbuild@0.28.2 (postinstall: node install.js)',
      'npm warn install-scripts   esbuild@0.21.5 (postinstall: node install.js)',
      'npm warn install-scripts Run `npm install-scripts ls` to review, or `npm install-scripts approve <pkg>` to allow.',
    ].join('\n');
    expect(warnedPackages(output)).toEqual({ installScripts: ['better-sqlite3', '@swc/core', 'esbuild'], engines: ['preferred-pm'] });
    expect(warnedPackages('added 1509 packages in 3m')).toEqual({ installScripts: [], engines: [] });
  });

  it('pastes a snippet after the first matching line, and says when there is none', () => {
    const file = path.join(mkdtempSync(path.join(os.tmpdir(), 'speech-paste-')), 'plugins.ts');
    writeFileSync(file, 'const config = () => ({\n  upload: {},\n});\n');
    insertAfterLine(file, /=> \(\{$/, '  speech: { enabled: true },');
    expect(readFileSync(file, 'utf8')).toBe('const config = () => ({\n  speech: { enabled: true },\n  upload: {},\n});\n');
    expect(() => insertAfterLine(file, /^nope$/, 'x')).toThrow(/has no line matching/);
  });
});
