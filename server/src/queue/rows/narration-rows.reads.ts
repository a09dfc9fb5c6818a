import type { Core } from '@strapi/strapi';
import { NARRATION_UID } from '../../content-types';
import { writeStamp } from '../../utils';
import { LIST_COLUMNS, type NarrationListRow, type NarrationRow } from '../domain/narration-row';
import { IN_FLIGHT_STATUSES } from '../domain/states';

/** The query engine, not the Document Service: the queue's rows are internal. */
export function narrationQuery(strapi: Core.Strapi): () => ReturnType<Core.Strapi['db']['query']> {
  return () => strapi.db.query(NARRATION_UID);
}

const ACTIVE_STATUSES = ['queued', 'submitting', 'awaiting_callback', 'awaiting_parts', 'storing'] as const;
const ARCHIVE_COUNTS_MS = 60_000;

const MEDIA_POPULATE = { audio: true, subtitles: true, subtitlesVtt: true } as const;
export const ALL_FILES_POPULATE = { ...MEDIA_POPULATE, pendingUploads: true, replacedFiles: true } as const;

/** What the worker looks for: work due, leases run out, callbacks overdue. */
function createWorkReads(strapi: Core.Strapi) {
  const query = narrationQuery(strapi);
  async function claimable(now: Date, limit: number): Promise<NarrationRow[]> {
    if (limit <= 0) return [];
    return (await query().findMany({
      where: { status: 'queued', $or: [{ nextAttemptAt: null }, { nextAttemptAt: { $lte: now } }] },
      orderBy: [{ nextAttemptAt: 'asc' }, { id: 'asc' }],
      limit,
    })) as NarrationRow[];
  }

  /** One indexed lookup, so an idle tick costs the same with ten rows or a million. */
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

  async function awaitingParts(): Promise<NarrationRow[]> {
    return (await query().findMany({ where: { status: 'awaiting_parts' }, limit: 50 })) as NarrationRow[];
  }

  /** Longest-waiting first: a deferred row moves behind rows ready before its retry time. */
  async function readyToStore(now: Date, limit: number): Promise<NarrationRow[]> {
    if (limit <= 0) return [];
    return (await query().findMany({
      where: { status: 'storing', leaseOwner: null, $or: [{ nextAttemptAt: null }, { nextAttemptAt: { $lte: now } }] },
      orderBy: [{ nextAttemptAt: 'asc' }, { id: 'asc' }],
      limit,
    })) as NarrationRow[];
  }

  return { claimable, hasActiveRows, countInFlight, withExpiredLease, withCallbackOverdue, awaitingParts, readyToStore };
}

/** A narration by its keys, a document's, a type's newest: what views and other features read. */
function createDocumentReads(strapi: Core.Strapi) {
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

  async function findForDocument(contentType: string, documentId: string): Promise<NarrationRow[]> {
    return (await query().findMany({ where: { contentType, targetDocumentId: documentId }, populate: MEDIA_POPULATE })) as NarrationRow[];
  }

  /** Only the columns a list shows (never the JSON columns): the list view asks on every page. */
  async function findForDocuments(contentType: string, documentIds: string[]): Promise<NarrationListRow[]> {
    if (documentIds.length === 0) return [];
    return (await query().findMany({
      select: [...LIST_COLUMNS],
      where: { contentType, targetDocumentId: { $in: documentIds } },
    })) as NarrationListRow[];
  }

  /** The verifier's sweep: each store is checked once. */
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
      where: { contentType, firstCompletedAt: { $notNull: true }, ...(locale ? { targetLocale: locale } : {}) },
      // By first publication: a corrected narration keeps its place.
      orderBy: [{ firstCompletedAt: 'desc' }, { id: 'desc' }],
      offset: start,
      limit,
      select: [
        'id',
        'articleId',
        'targetDocumentId',
        'targetLocale',
        'title',
        'completedAt',
        'firstCompletedAt',
        'feedGuid',
        'durationSeconds',
        'audioBytes',
        'chapters',
        'revisions',
      ],
      populate: { audio: { select: ['id', 'url', 'hash', 'provider'] }, subtitles: { select: ['id'] }, subtitlesVtt: { select: ['id'] } },
    })) as NarrationRow[];
  }

  /** Every locale's stored narration of these documents: a feed item's alternate enclosures. */
  async function withAudioForDocuments(contentType: string, documentIds: string[]): Promise<NarrationRow[]> {
    if (documentIds.length === 0) return [];
    return (await query().findMany({
      where: { contentType, targetDocumentId: { $in: documentIds }, firstCompletedAt: { $notNull: true } },
      select: ['id', 'articleId', 'targetDocumentId', 'targetLocale', 'completedAt', 'audioBytes'],
      populate: { audio: { select: ['id'] } },
    })) as NarrationRow[];
  }

  /**
   * Strapi moves `updatedAt` on single-row writes (a store's), not on a state change's `updateMany`:
   * new audio and removed rows change the stamp.
   */
  async function changeStamp(contentType: string): Promise<string> {
    return writeStamp(query(), { contentType });
  }

  return {
    findByArticleId,
    findById,
    findForDocument,
    findForDocuments,
    storedSince,
    withAudioNewestFirst,
    withAudioForDocuments,
    changeStamp,
  };
}

/** Figures of the whole queue, for the overview and the estimates. */
function createCounts(strapi: Core.Strapi) {
  const query = narrationQuery(strapi);
  /** Archive counts grow with every article ever narrated, so they are kept for a minute; active ones are counted live. */
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

  /** A bounded read by primary key, whatever the size of the archive. */
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

  return { countByStatus, recentAverageCharacters };
}

/** Which rows a list over the whole queue takes: statuses, the types (some in some locales only) the caller may see, filters. */
export interface RowScope {
  statuses: readonly string[];
  types: ReadonlyArray<{ contentType: string; locales?: readonly string[] }>;
  locale?: string | null;
  /** An error code; null: rows without one; left out: any. */
  code?: string | null;
}

/** The fields of a list's row that decide who may see it. */
export type RowRef = Pick<NarrationRow, 'id' | 'contentType' | 'targetDocumentId' | 'targetLocale'>;

function whereOf(scope: RowScope) {
  return {
    status: { $in: [...scope.statuses] },
    $or: scope.types.map((type) =>
      type.locales ? { contentType: type.contentType, targetLocale: { $in: [...type.locales] } } : { contentType: type.contentType }
    ),
    ...(scope.locale !== undefined ? { targetLocale: scope.locale } : {}),
    ...(scope.code !== undefined ? { lastErrorCode: scope.code } : {}),
  };
}

/** The queue page's reads: counts in one grouped query, lists a page at a time. */
function createQueueListReads(strapi: Core.Strapi) {
  const query = narrationQuery(strapi);
  const orderOf = (oldestFirst: boolean) => (oldestFirst ? [{ nextAttemptAt: 'asc' }, { id: 'asc' }] : [{ id: 'desc' }]);
  return {
    /** Rows by type, locale, status and error code: a handful of groups, whatever the size of the queue. */
    async statusCells(statuses: readonly string[], contentTypes: readonly string[]) {
      if (contentTypes.length === 0) return [];
      const knex = strapi.db.connection;
      const table = strapi.db.metadata.get(NARRATION_UID).tableName;
      const rows = (await knex(table)
        .select('content_type', 'target_locale', 'status', 'last_error_code')
        .count({ count: '*' })
        .whereIn('status', [...statuses])
        .whereIn('content_type', [...contentTypes])
        .groupBy('content_type', 'target_locale', 'status', 'last_error_code')) as Array<{
        content_type: string;
        target_locale: string | null;
        status: string;
        last_error_code: string | null;
        count: number | string;
      }>;
      return rows.map((row) => ({
        contentType: row.content_type,
        locale: row.target_locale,
        status: row.status,
        code: row.last_error_code,
        count: Number(row.count),
      }));
    },

    async countInScope(scope: RowScope): Promise<number> {
      return scope.types.length === 0 ? 0 : query().count({ where: whereOf(scope) });
    },

    async inScope(scope: RowScope, { offset, limit, oldestFirst }: { offset: number; limit: number; oldestFirst: boolean }) {
      if (scope.types.length === 0 || limit <= 0) return [];
      return (await query().findMany({
        select: [...LIST_COLUMNS],
        where: whereOf(scope),
        orderBy: orderOf(oldestFirst),
        offset,
        limit,
      })) as NarrationListRow[];
    },

    /** What a role with conditions needs to decide which of these rows it may see, at most `limit`. */
    async refsInScope(scope: RowScope, { limit, oldestFirst }: { limit: number; oldestFirst: boolean }) {
      if (scope.types.length === 0) return [];
      return (await query().findMany({
        select: ['id', 'contentType', 'targetDocumentId', 'targetLocale', 'status', 'lastErrorCode'],
        where: whereOf(scope),
        orderBy: orderOf(oldestFirst),
        limit,
      })) as Array<RowRef & Pick<NarrationRow, 'status' | 'lastErrorCode'>>;
    },

    async findByIds(ids: readonly number[]): Promise<NarrationRow[]> {
      if (ids.length === 0) return [];
      return (await query().findMany({ where: { id: { $in: [...ids] } } })) as NarrationRow[];
    },

    async findByArticleIds(articleIds: readonly string[]): Promise<NarrationRow[]> {
      if (articleIds.length === 0) return [];
      const rows = (await query().findMany({ where: { articleId: { $in: [...articleIds] } } })) as NarrationRow[];
      // Exact ids only, as findByArticleId: MySQL's collations compare case-insensitively.
      const wanted = new Set(articleIds);
      return rows.filter((row) => wanted.has(row.articleId));
    },
  };
}

/** A backfill's rows, and the queue's recent pace that paces it. */
function createBackfillReads(strapi: Core.Strapi) {
  const query = narrationQuery(strapi);
  return {
    /** How many rows each of these backfills has queued, in each status. */
    async backfillCells(
      backfills: readonly number[]
    ): Promise<Array<{ backfill: number; status: string; count: number; credits: number }>> {
      if (backfills.length === 0) return [];
      const knex = strapi.db.connection;
      const table = strapi.db.metadata.get(NARRATION_UID).tableName;
      const rows = (await knex(table)
        .select('backfill', 'status')
        .count({ count: '*' })
        .sum({ credits: 'credits' })
        .whereIn('backfill', [...backfills])
        .groupBy('backfill', 'status')) as Array<{
        backfill: number | string;
        status: string;
        count: number | string;
        credits: number | string | null;
      }>;
      return rows.map((row) => ({
        backfill: Number(row.backfill),
        status: row.status,
        count: Number(row.count),
        credits: Number(row.credits ?? 0),
      }));
    },

    /** The rows a backfill queued that are still waiting for their turn (nothing sent yet). */
    async queuedOfBackfill(backfill: number): Promise<NarrationRow[]> {
      return (await query().findMany({ where: { backfill, status: 'queued' } })) as NarrationRow[];
    },

    /** From submission to stored, of the last `limit` narrations stored: the queue's pace. */
    async recentGenerationSeconds(limit: number): Promise<number[]> {
      const rows = (await query().findMany({
        select: ['submittedAt', 'completedAt'],
        where: { status: 'completed', submittedAt: { $notNull: true }, completedAt: { $notNull: true } },
        orderBy: { completedAt: 'desc' },
        limit,
      })) as Array<{ submittedAt: string; completedAt: string }>;
      return rows.map((row) => (Date.parse(row.completedAt) - Date.parse(row.submittedAt)) / 1000).filter((seconds) => seconds >= 0);
    },
  };
}

export function createNarrationRowReads(strapi: Core.Strapi) {
  return {
    ...createWorkReads(strapi),
    ...createDocumentReads(strapi),
    ...createCounts(strapi),
    ...createQueueListReads(strapi),
    ...createBackfillReads(strapi),
  };
}

export type NarrationRowReads = ReturnType<typeof createNarrationRowReads>;
/** What other features read of the queue's rows: never the worker's own lookups. */
export type ViewReads = ReturnType<typeof createDocumentReads> &
  ReturnType<typeof createCounts> &
  ReturnType<typeof createQueueListReads> &
  ReturnType<typeof createBackfillReads>;
