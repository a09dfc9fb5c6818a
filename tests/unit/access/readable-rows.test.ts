import { documentKey } from '../../../server/src/access/document-permissions';
import { readableRows } from '../../../server/src/access/readable-rows';

/** Permissions granting each action on the listed documents only, and recording what was asked. */
function permissionsOf(granted: Record<string, string[]>) {
  const asked: Array<{ uid: string; action: string; count: number }> = [];
  return {
    asked,
    async permitted(_ability: unknown, uid: string, targets: Array<{ documentId: string; locale: string | null }>, action: string) {
      asked.push({ uid, action, count: targets.length });
      const keys = new Set(granted[action] ?? []);
      return new Set(targets.map((t) => documentKey(t.documentId, t.locale)).filter((key) => keys.has(key)));
    },
  };
}
const types = { exists: (uid: string) => uid !== 'api::gone.gone', isLocalized: (uid: string) => uid === 'api::a.a' };
const rows = [
  { id: 1, contentType: 'api::a.a', documentId: 'd1', locale: 'en' },
  { id: 2, contentType: 'api::a.a', documentId: 'd2', locale: 'en' },
  { id: 3, contentType: 'api::b.b', documentId: 'd3', locale: 'en' },
  { id: 4, contentType: 'api::gone.gone', documentId: 'd4', locale: 'en' },
];

describe('rows as the Content Manager lets the caller see them', () => {
  it('keeps the rows whose document is read, in their order, without a removed type', async () => {
    const permissions = permissionsOf({ read: [documentKey('d2', 'en'), documentKey('d3', null)] });
    const kept = await readableRows({ permissions, types }, {}, rows, (row) => row);
    expect(kept.map((row) => row.id)).toEqual([2, 3]);
    // A type without locales is asked about its one version.
    expect(permissions.asked).toEqual([
      { uid: 'api::a.a', action: 'read', count: 2 },
      { uid: 'api::b.b', action: 'read', count: 1 },
    ]);
  });

  it('asks each action in turn, of the rows the one before kept', async () => {
    const permissions = permissionsOf({
      read: [documentKey('d1', 'en'), documentKey('d2', 'en'), documentKey('d3', null)],
      narrate: [documentKey('d1', 'en'), documentKey('d3', null)],
    });
    const kept = await readableRows({ permissions, types }, {}, rows, (row) => row, ['read', 'narrate']);
    expect(kept.map((row) => row.id)).toEqual([1, 3]);
    expect(permissions.asked.filter((a) => a.uid === 'api::a.a')).toEqual([
      { uid: 'api::a.a', action: 'read', count: 2 },
      { uid: 'api::a.a', action: 'narrate', count: 2 },
    ]);
  });
});
