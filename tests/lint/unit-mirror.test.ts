/**
 * Unit tests live in `tests/unit/<folder>/`, after the source folder they test, so that a reader
 * of `server/src/queue/` finds its tests in `tests/unit/queue/` and nowhere else.
 */
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '../..');
const UNIT = path.join(ROOT, 'tests/unit');
/** Test folders whose source is not `server/src/<folder>`. */
const OTHER_SOURCES: Record<string, string> = { admin: 'admin/src', player: 'player/src' };
/** The tests of the install suite's own helpers, and helpers shared across folders. */
const AT_THE_ROOT = /^(install-[\w-]+\.test\.ts|strapi-error-helpers\.ts)$/;

const sourceOf = (folder: string) => path.join(ROOT, OTHER_SOURCES[folder] ?? path.join('server/src', folder));

describe('tests/unit mirrors the source', () => {
  const entries = readdirSync(UNIT, { withFileTypes: true });

  it('names each folder after a source folder', () => {
    const strays = entries
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name)
      .filter((name) => !existsSync(sourceOf(name)));
    expect(strays).toEqual([]);
  });

  it('keeps no test of a source folder at its root', () => {
    const strays = entries.filter((entry) => entry.isFile() && !AT_THE_ROOT.test(entry.name)).map((entry) => entry.name);
    expect(strays).toEqual([]);
  });
});
