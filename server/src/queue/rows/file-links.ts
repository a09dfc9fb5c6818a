import type { Core } from '@strapi/strapi';
import { allFiles, linkStoredFiles } from '../domain/file-links';
import type { MediaFileRef, NarrationRow } from '../domain/narration-row';
import type { MediaLinks } from '../domain/states';
import { ALL_FILES_POPULATE, narrationQuery, type NarrationRowReads } from './narration-rows.reads';

export function createNarrationFileLinks(strapi: Core.Strapi, reads: Pick<NarrationRowReads, 'findById'>) {
  const query = narrationQuery(strapi);

  /** In the transaction of the won update; returns the files waiting to be removed (removed once committed). */
  async function linkStored(id: number, links: MediaLinks): Promise<MediaFileRef[]> {
    const { pendingUploads, replacedFiles, toRemove } = linkStoredFiles((await reads.findById(id, ALL_FILES_POPULATE)) ?? {}, links);
    await query().update({ where: { id }, data: { ...links, pendingUploads, replacedFiles } });
    return toRemove;
  }

  /** The uploads of stores that did not link them (the row's lease holder removes them before its own). */
  async function pendingUploadsOf(id: number): Promise<MediaFileRef[]> {
    return (await reads.findById(id, { pendingUploads: true }))?.pendingUploads ?? [];
  }

  /** An indexed flag: only rows whose removal a crash or a failed delete cut short. */
  async function withReplacedFilesWaiting(afterId: number, limit: number): Promise<NarrationRow[]> {
    return (await query().findMany({
      where: { replacedFilesWaiting: true, id: { $gt: afterId } },
      orderBy: { id: 'asc' },
      limit,
      populate: { replacedFiles: true },
    })) as NarrationRow[];
  }

  /**
   * The row is first taken from any lease holder by an update, which in PostgreSQL waits for a storing
   * worker's final write; that worker's later write finds no row and removes its own files.
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
