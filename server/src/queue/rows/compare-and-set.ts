import type { Core } from '@strapi/strapi';
import type { MediaFileRef } from '../domain/narration-row';
import type { MediaLinks, NarrationPatch, NarrationState, NarrationStatus, TransitionGuard } from '../domain/states';
import type { NarrationFileLinks } from './file-links';
import { narrationQuery } from './narration-rows.reads';

/** State changes as conditional updates: atomic in SQLite and PostgreSQL, so of two racing writers exactly one sees `count === 1`. */

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

/** The narration's three files are linked together or not at all. */
function splitLinks(patch: NarrationPatch): { links: MediaLinks | null; scalar: Omit<NarrationPatch, keyof MediaLinks> } {
  const { audio, subtitles, subtitlesVtt, ...scalar } = patch;
  if (audio === undefined && subtitles === undefined && subtitlesVtt === undefined) return { links: null, scalar };
  if (audio === undefined || subtitles === undefined || subtitlesVtt === undefined) {
    throw new Error('A narration patch links its audio, subtitles and WebVTT files together.');
  }
  return { links: { audio, subtitles, subtitlesVtt }, scalar };
}

/** `query`: the table (articles by default; parts, which never link files, have their own). */
export function createConditionalUpdate(
  strapi: Core.Strapi,
  fileLinks: Pick<NarrationFileLinks, 'linkStored'> | null,
  query: () => ReturnType<Core.Strapi['db']['query']> = narrationQuery(strapi)
) {
  /**
   * Media links are written in the same transaction once the update has won; in PostgreSQL the
   * UPDATE locks the row, so a concurrent delete (removeWithMedia) waits and then sees the links.
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

/** The row after a won write, without reading it back (dates as the database returns them, ISO). */
export function rowAfter<Row extends NarrationState>(row: Row, patch: NarrationPatch): Row {
  const { links, scalar } = splitLinks(patch);
  const stored = Object.fromEntries(
    Object.entries(scalar).map(([key, value]) => [key, value instanceof Date ? value.toISOString() : value])
  );
  const linked = links ? Object.fromEntries(Object.entries(links).map(([field, id]) => [field, { id }])) : {};
  return { ...row, ...stored, ...linked } as Row;
}
