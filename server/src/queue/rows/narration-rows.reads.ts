import type { Core } from '@strapi/strapi';
import { NARRATION_UID } from '../../content-types';
import { writeStamp } from '../../utils';
import { LIST_COLUMNS, type NarrationListRow, type NarrationRow } from '../domain/narration-row';
import { IN_FLIGHT_STATUSES } from '../domain/states';

/** The narration rows' queries: what the worker, the admin, the feeds and the settings page read of the queue. */

/** The query engine's access to the narration rows (not the Document Service: the queue's rows are internal). */
export function narrationQuery(strapi: Core.Strapi): () => ReturnType<Core.Strapi['db']['query']> {
  return () => strapi.db.query(NARRATION_UID);
}

/** Statuses of a narration on its way: the worker only ever looks for these. */
const ACTIVE_STATUSES = ['queued', 'submitting', 'awaiting_callback', 'awaiting_parts', 'storing'] as const;
const ARCHIVE_COUNTS_MS = 60_000;

const MEDIA_POPULATE = { audio: true, subtitles: true, subtitlesVtt: true } as const;
/** The narration's files and the others the row holds until they are removed. */
export const ALL_FILES_POPULATE = { ...MEDIA_POPULATE, pendingUploads: true, replacedFiles: true } as const;

export function createNarrationRowReads(strapi: Core.Strapi) {
  const query = narrationQuery(strapi);

  async function findByArticleId(articleId: string, withMedia = false): Promise<NarrationRow | null> {
    const row = (await query().findOne({ where: { articleId }, populate: withMedia ? MEDIA_POPULATE : undefined })) as NarrationRow | null;
    // MySQL and MariaDB compare strings case-insensitively (their default collations): an id that
    // differs only in case is another article there too, as on SQLite and PostgreSQL.
    return row && row.articleId === articleId ? row : null;
  }

  /** `withMedia`: true for the narration's files, or the media fields to read. */
  async function findById(id: number, withMedia: boolean | Record<string, true> = false): Promise<NarrationRow | null> {
    const populate = withMedia === true ? MEDIA_POPULATE : withMedia || undefined;
    return (await query().findOne({ where: { id }, populate })) as NarrationRow | null;
  }

  async function claimable(now: Date, limit: number): Promise<NarrationRow[]> {
    if (limit <= 0) return [];
    return (await query().findMany({
      where: { status: 'queued', $or: [{ nextAttemptAt: null }, { nextAttemptAt: { $lte: now } }] },
      orderBy: [{ nextAttemptAt: 'asc' }, { id: 'asc' }],
      limit,
    })) as NarrationRow[];
  }

  /**
   * Whether any narration is on its way at all: one indexed lookup, so an idle worker tick costs
   * the same with ten rows or a million (completed, failed and cancelled rows are never read).
   */
  async function hasActiveRows(): Promise<boolean> {
    const row = await query().findOne({ where: { status: { $in: [...ACTIVE_STATUSES] } }, select: ['id'] });
    return Boolean(row);
  }

  async function countInFlight(): Promise<number> {
    return query().count({ where: { status: { $in: [...IN_FLIGHT_STATUSES] } } });
  }

  async function withExpiredLease(now: Date): Promise<NarrationRow[]> {
    return (await query().findMany({
      where: { status: { $in: ['submitting', 'storing'] }, leaseExpiresAt: { $lt: now } },
      limit: 50,
    })) as NarrationRow[];
  }

  async function withCallbackOverdue(now: Date): Promise<NarrationRow[]> {
    return (await query().findMany({
      where: { status: 'awaiting_callback', callbackDeadline: { $lt: now } },
      limit: 50,
    })) as NarrationRow[];
  }

  /** Segmented articles waiting for their parts (docs/segmented-narration.md). */
  async function awaitingParts(): Promise<NarrationRow[]> {
    return (await query().findMany({ where: { status: 'awaiting_parts' }, limit: 50 })) as NarrationRow[];
  }

  /**
   * Results waiting to be stored, longest-waiting first: a deferred row moves behind the rows that
   * became ready before its retry time, so freed slots do not always go back to the same old rows.
   */
  async function readyToStore(now: Date, limit: number): Promise<NarrationRow[]> {
    if (limit <= 0) return [];
    return (await query().findMany({
      where: { status: 'storing', leaseOwner: null, $or: [{ nextAttemptAt: null }, { nextAttemptAt: { $lte: now } }] },
      orderBy: [{ nextAttemptAt: 'asc' }, { id: 'asc' }],
      limit,
    })) as NarrationRow[];
  }

  /**
   * One page of a type's narrations that have stored audio, newest audio first (a podcast feed), with
   * what a feed item needs of their files. `locale` null: every locale.
   */
  /**
   * Narrations of `contentTypes` stored at `since` or later, the earliest first, with their audio
   * (the verifier's sweep: each store is checked once).
   */
  async function storedSince(since: Date, contentTypes: readonly string[], limit: number): Promise<NarrationRow[]> {
    if (contentTypes.length === 0) return [];
    return (await query().findMany({
      where: { status: 'completed', contentType: { $in: [...contentTypes] }, completedAt: { $gte: since } },
      orderBy: [{ completedAt: 'asc' }, { id: 'asc' }],
      limit,
      populate: { audio: { select: ['id', 'url', 'hash', 'provider', 'size', 'mime'] } },
    })) as NarrationRow[];
  }

  async function withAudioNewestFirst(
    contentType: string,
    locale: string | null,
    { start, limit }: { start: number; limit: number }
  ): Promise<NarrationRow[]> {
    return (await query().findMany({
      where: { contentType, completedAt: { $notNull: true }, ...(locale ? { targetLocale: locale } : {}) },
      orderBy: [{ completedAt: 'desc' }, { id: 'desc' }],
      offset: start,
      limit,
      select: ['id', 'articleId', 'targetDocumentId', 'targetLocale', 'title', 'completedAt', 'durationSeconds', 'audioBytes'],
      populate: { audio: { select: ['id', 'url', 'hash', 'provider'] }, subtitlesVtt: { select: ['id'] } },
    })) as NarrationRow[];
  }

  /**
   * How many narrations the type has, and the latest `updatedAt` among them. Strapi moves
   * `updatedAt` on single-row writes (a store links the new files with one), not on the conditional
   * `updateMany` of a state change: new audio and removed rows change the stamp; a title recorded for
   * a version not yet narrated does not.
   */
  async function changeStamp(contentType: string): Promise<string> {
    return writeStamp(query(), { contentType });
  }

  /**
   * The rows of a page of documents, for the list view's statuses and the lexicon's affected list:
   * only the columns those show (never the JSON of chapters, results seen or a pending result),
   * which the list view asks for on every page.
   */
  async function findForDocuments(contentType: string, documentIds: string[]): Promise<NarrationListRow[]> {
    if (documentIds.length === 0) return [];
    return (await query().findMany({
      select: [...LIST_COLUMNS],
      where: { contentType, targetDocumentId: { $in: documentIds } },
    })) as NarrationListRow[];
  }

  async function findForDocument(contentType: string, documentId: string): Promise<NarrationRow[]> {
    return (await query().findMany({ where: { contentType, targetDocumentId: documentId }, populate: MEDIA_POPULATE })) as NarrationRow[];
  }

  /**
   * Rows per status for the settings overview. Active statuses are counted live (index seeks over
   * few rows); the archive's (completed, failed, cancelled) grow with every article ever narrated,
   * so their counts are kept for a minute.
   */
  let archiveCounts: { value: Record<string, number>; at: number } | null = null;
  async function countByStatus(): Promise<Record<string, number>> {
    const counts: Record<string, number> = {};
    for (const status of ACTIVE_STATUSES) counts[status] = await query().count({ where: { status } });
    if (!archiveCounts || Date.now() - archiveCounts.at > ARCHIVE_COUNTS_MS) {
      const value: Record<string, number> = {};
      for (const status of ['completed', 'failed', 'cancelled']) value[status] = await query().count({ where: { status } });
      archiveCounts = { value, at: Date.now() };
    }
    return { ...counts, ...archiveCounts.value };
  }

  /**
   * Average narrated characters per content type over the latest narrations (the settings page's
   * cost preview): a bounded read by primary key, whatever the size of the archive.
   */
  async function recentAverageCharacters(sample = 1_000): Promise<Record<string, { articles: number; characters: number }>> {
    const knex = strapi.db.connection;
    const table = strapi.db.metadata.get(NARRATION_UID).tableName;
    const recent = knex(table).select('content_type', 'characters').orderBy('id', 'desc').limit(sample).as('recent');
    const rows = (await knex
      .from(recent)
      .select('content_type')
      .count({ articles: '*' })
      .avg({ characters: 'characters' })
      .groupBy('content_type')) as Array<{
      content_type: string;
      articles: number | string;
      characters: number | string | null;
    }>;
    return Object.fromEntries(
      rows.map((row) => [row.content_type, { articles: Number(row.articles), characters: Math.round(Number(row.characters ?? 0)) }])
    );
  }

  return {
    findByArticleId,
    findById,
    claimable,
    hasActiveRows,
    countInFlight,
    withExpiredLease,
    withCallbackOverdue,
    awaitingParts,
    readyToStore,
    withAudioNewestFirst,
    storedSince,
    changeStamp,
    findForDocuments,
    findForDocument,
    countByStatus,
    recentAverageCharacters,
  };
}

export type NarrationRowReads = ReturnType<typeof createNarrationRowReads>;
