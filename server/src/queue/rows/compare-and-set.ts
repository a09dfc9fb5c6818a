import type { Core } from '@strapi/strapi';
import type { MediaFileRef } from '../domain/narration-row';
import type { MediaLinks, NarrationPatch, NarrationState, NarrationStatus, TransitionGuard } from '../domain/states';
import type { NarrationFileLinks } from './file-links';
import { narrationQuery } from './narration-rows.reads';

/**
 * The compare-and-set every state change lands as: a conditional update (`WHERE id = ? AND status
 * IN (...)`, plus the transition's guard: the lease owner, the old counter values), which is atomic
 * in SQLite and PostgreSQL alike: of two instances or two duplicate callbacks racing for one row,
 * exactly one sees `count === 1`.
 */

/** The where clause of a conditional update: the expected status and the transition's guard. */
export function conditionalWhere(id: number, from: NarrationStatus[], guard: TransitionGuard = {}): Record<string, unknown> {
  const conditions: Record<string, unknown>[] = [{ id }, { status: { $in: from } }];
  if (guard.leaseOwner !== undefined) conditions.push({ leaseOwner: guard.leaseOwner });
  if (guard.leaseExpiredBefore !== undefined) conditions.push({ leaseExpiresAt: { $lt: guard.leaseExpiredBefore } });
  for (const [field, value] of Object.entries(guard.counters ?? {})) {
    // Rows written before a counter existed hold NULL where the machine reads 0.
    conditions.push(value === 0 ? { $or: [{ [field]: 0 }, { [field]: null }] } : { [field]: value });
  }
  return { $and: conditions };
}

/**
 * A patch's media links apart from its other fields: the narration's three files are linked
 * together or not at all (file-links.ts counts a narration field left out as a file unlinked).
 */
function splitLinks(patch: NarrationPatch): { links: MediaLinks | null; scalar: Omit<NarrationPatch, keyof MediaLinks> } {
  const { audio, subtitles, subtitlesVtt, ...scalar } = patch;
  if (audio === undefined && subtitles === undefined && subtitlesVtt === undefined) return { links: null, scalar };
  if (audio === undefined || subtitles === undefined || subtitlesVtt === undefined) {
    throw new Error('A narration patch links its audio, subtitles and WebVTT files together.');
  }
  return { links: { audio, subtitles, subtitlesVtt }, scalar };
}

/**
 * `query`: the table the narrations are in (articles by default; the parts of segmented narrations,
 * which never link files, are items of the same machine in a table of their own).
 */
export function createConditionalUpdate(
  strapi: Core.Strapi,
  fileLinks: Pick<NarrationFileLinks, 'linkStored'> | null,
  query: () => ReturnType<Core.Strapi['db']['query']> = narrationQuery(strapi)
) {
  /**
   * Writes a patch if the row is still in an expected state. Media links in the patch are written
   * in the same transaction, after the conditional update has won: the row's scalar fields and its
   * files change together or not at all, the linked files leave `pendingUploads` and the unlinked
   * ones join `replacedFiles` (file-links.ts). In PostgreSQL the conditional UPDATE locks the row,
   * so a concurrent delete (see removeWithMedia) waits for the links and then sees them.
   */
  return async function conditionalUpdate(
    id: number,
    from: NarrationStatus[],
    patch: NarrationPatch,
    guard: TransitionGuard = {}
  ): Promise<{ won: boolean; replaced: MediaFileRef[] }> {
    const { links, scalar } = splitLinks(patch);
    const where = conditionalWhere(id, from, guard);
    if (!links) {
      const { count } = await query().updateMany({ where, data: scalar });
      return { won: count === 1, replaced: [] };
    }
    if (!fileLinks) throw new Error('These narrations link no files.');
    return strapi.db.transaction(async () => {
      const { count } = await query().updateMany({ where, data: scalar });
      if (count !== 1) return { won: false, replaced: [] };
      return { won: true, replaced: await fileLinks.linkStored(id, links) };
    });
  };
}

/**
 * The row as a won write left it, without reading it back: dates in the patch as the database
 * gives them back (ISO strings), and the files it linked by their ids.
 */
export function rowAfter<Row extends NarrationState>(row: Row, patch: NarrationPatch): Row {
  const { links, scalar } = splitLinks(patch);
  const stored = Object.fromEntries(
    Object.entries(scalar).map(([key, value]) => [key, value instanceof Date ? value.toISOString() : value])
  );
  const linked = links ? Object.fromEntries(Object.entries(links).map(([field, id]) => [field, { id }])) : {};
  return { ...row, ...stored, ...linked } as Row;
}
