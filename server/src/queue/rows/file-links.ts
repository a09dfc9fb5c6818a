import type { Core } from '@strapi/strapi';
import { allFiles, linkStoredFiles } from '../domain/file-links';
import type { MediaFileRef, NarrationRow } from '../domain/narration-row';
import type { MediaLinks } from '../domain/states';
import { ALL_FILES_POPULATE, narrationQuery, type NarrationRowReads } from './narration-rows.reads';

/**
 * The Media Library files a narration row holds (domain/file-links.ts says which and why): linked
 * by a store's final write, listed while they wait to be removed, all given up when the row goes.
 */
export function createNarrationFileLinks(strapi: Core.Strapi, reads: Pick<NarrationRowReads, 'findById'>) {
  const query = narrationQuery(strapi);

  /**
   * Links a store's files as the row's narration, in the transaction of the conditional update that
   * won: the linked files leave `pendingUploads`, the unlinked ones join `replacedFiles`. Answers the
   * files waiting to be removed (the caller removes them once committed).
   */
  async function linkStored(id: number, links: MediaLinks): Promise<MediaFileRef[]> {
    const { pendingUploads, replacedFiles, toRemove } = linkStoredFiles((await reads.findById(id, ALL_FILES_POPULATE)) ?? {}, links);
    await query().update({ where: { id }, data: { ...links, pendingUploads, replacedFiles } });
    return toRemove;
  }

  /** The uploads of stores that did not link them (the row's lease holder removes them before its own). */
  async function pendingUploadsOf(id: number): Promise<MediaFileRef[]> {
    return (await reads.findById(id, { pendingUploads: true }))?.pendingUploads ?? [];
  }

  /**
   * Rows whose replaced files may still be in the Media Library, with them, after the row `afterId`
   * (an indexed flag: only rows whose removal a crash or a failed delete cut short).
   */
  async function withReplacedFilesWaiting(afterId: number, limit: number): Promise<NarrationRow[]> {
    return (await query().findMany({
      where: { replacedFilesWaiting: true, id: { $gt: afterId } },
      orderBy: { id: 'asc' },
      limit,
      populate: { replacedFiles: true },
    })) as NarrationRow[];
  }

  /**
   * Deletes a row and answers every file it held (file-links.ts; the caller removes them). The row
   * is first taken from any lease holder by an update, which in PostgreSQL waits for a storing
   * worker's final write to commit; the links read afterwards are therefore the last ones, and that
   * worker's write, if it comes later, finds no row and removes its own files.
   */
  async function removeWithMedia(id: number): Promise<MediaFileRef[]> {
    return strapi.db.transaction(async () => {
      const { count } = await query().updateMany({ where: { id }, data: { leaseOwner: null, leaseExpiresAt: null } });
      if (count === 0) return [];
      const row = await reads.findById(id, ALL_FILES_POPULATE);
      await query().delete({ where: { id } });
      return row ? allFiles(row) : [];
    });
  }

  return { linkStored, pendingUploadsOf, withReplacedFilesWaiting, removeWithMedia };
}

export type NarrationFileLinks = ReturnType<typeof createNarrationFileLinks>;
