/**
 * Unit tests live in `tests/unit/<folder>/`, after the source folder they test, so that a reader
 * of `server/src/queue/` finds its tests in `tests/unit/queue/` and nowhere else.
 */
import { readdirSync } from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '../..');
const UNIT = path.join(ROOT, 'tests/unit');
/** Test folders whose source is not a server/src folder. */
const OTHER_SOURCES: Record<string, string> = { admin: 'admin/src' };
/** The tests of the install suite's own helpers, and helpers shared across folders. */
const AT_THE_ROOT = /^(install-[\w-]+\.test\.ts|strapi-error-helpers\.ts)$/;

const serverFolders = readdirSync(path.join(ROOT, 'server/src'), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);

describe('tests/unit mirrors the source', () => {
  const entries = readdirSync(UNIT, { withFileTypes: true });

  it('names each folder after a source folder', () => {
    const strays = entries
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name)
      .filter((name) => !serverFolders.includes(name) && !(name in OTHER_SOURCES));
    expect(strays).toEqual([]);
  });

  it('keeps no test of a source folder at its root', () => {
    const strays = entries.filter((entry) => entry.isFile() && !AT_THE_ROOT.test(entry.name)).map((entry) => entry.name);
    expect(strays).toEqual([]);
  });
});
