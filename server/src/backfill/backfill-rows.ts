import type { Core } from '@strapi/strapi';
import type { BackfillStatus } from '../../../shared/contracts/backfills';
import { BACKFILL_UID } from '../content-types';

export interface BackfillRow {
  id: number;
  contentType: string;
  targetLocale: string | null;
  publishedBefore: string;
  status: BackfillStatus;
  total: number;
  fed: number;
  cursorPublishedAt: string | null;
  cursorDocumentId: string | null;
  exhausted: boolean;
  causedBy: string | null;
  createdAt: string;
}

/** The backfills' table: each change of status is a compare-and-set on the status it was read in. */
export function createBackfillRows(strapi: Core.Strapi) {
  // The query engine: the Document Service would announce an internal row (see queue/rows/narration-rows.ts).
  const query = () => strapi.db.query(BACKFILL_UID);
  const when = (value: string | Date | null) => (value === null ? null : new Date(value).toISOString());
  const normal = (row: BackfillRow): BackfillRow => ({
    ...row,
    publishedBefore: when(row.publishedBefore)!,
    cursorPublishedAt: when(row.cursorPublishedAt),
    createdAt: when(row.createdAt)!,
    exhausted: Boolean(row.exhausted),
  });

  return {
    async create(data: Pick<BackfillRow, 'contentType' | 'targetLocale' | 'total' | 'causedBy'> & { publishedBefore: Date }) {
      const row = (await query().create({
        data: { ...data, status: 'running', fed: 0, exhausted: false, publishedAt: new Date() },
      })) as BackfillRow;
      return normal(row);
    },

    async find(id: number): Promise<BackfillRow | null> {
      const row = (await query().findOne({ where: { id } })) as BackfillRow | null;
      return row ? normal(row) : null;
    },

    async newestFirst(limit: number): Promise<BackfillRow[]> {
      return ((await query().findMany({ orderBy: { id: 'desc' }, limit })) as BackfillRow[]).map(normal);
    },

    /** Those that may queue more, oldest first: the first started goes first. */
    async active(): Promise<BackfillRow[]> {
      return ((await query().findMany({ where: { status: { $in: ['running', 'held'] } }, orderBy: { id: 'asc' } })) as BackfillRow[]).map(
        normal
      );
    },

    async setStatus(id: number, from: BackfillStatus, to: BackfillStatus): Promise<boolean> {
      const { count } = await query().updateMany({ where: { id, status: from }, data: { status: to } });
      return count === 1;
    },

    /** Whether it may queue more now: a pause or a cancel another request wrote stops a pass under way. */
    async feeding(id: number): Promise<boolean> {
      const row = (await query().findOne({ where: { id }, select: ['status'] })) as Pick<BackfillRow, 'status'> | null;
      return row?.status === 'running' || row?.status === 'held';
    },

    /** Where it has reached, written after each entry it passed, so that a restart resumes after it. */
    async advance(id: number, cursor: { publishedAt: string; documentId: string }, fed: number) {
      await query().update({ where: { id }, data: { cursorPublishedAt: cursor.publishedAt, cursorDocumentId: cursor.documentId, fed } });
    },

    async markExhausted(id: number) {
      await query().update({ where: { id }, data: { exhausted: true } });
    },
  };
}

export type BackfillRows = ReturnType<typeof createBackfillRows>;
