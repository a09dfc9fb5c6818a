import { writeStamp } from '../utils/write-stamp';
import type { Core } from '@strapi/strapi';
import { NARRATION_UID } from '../content-types';
import type { Chapter } from '../subtitles/chapters';
import type { PreprocessType } from './domain/cost';
import { allFiles, linkStoredFiles } from './domain/file-links';
import {
  IN_FLIGHT_STATUSES,
  transition,
  type MediaLinks,
  type NarrationEvent,
  type TransitionGuard,
  type NarrationJobPatch,
  type NarrationJobState,
  type NarrationStatus,
} from './domain/states';

/** A state change whose conditional update won: the transition's event, its expected states, its patch and the row after it. */
export interface CommittedChange {
  event: NarrationEvent;
  from: NarrationStatus[];
  patch: NarrationJobPatch;
  row: NarrationRow;
}

/**
 * The only code that writes narration rows. Every state change goes through `states.transition`
 * and lands as a conditional update (`WHERE id = ? AND status IN (...)`, plus the transition's
 * guard: the lease owner, the old counter values), which is atomic in SQLite and PostgreSQL alike:
 * of two instances or two duplicate callbacks racing for one row, exactly one sees `count === 1`.
 */

export interface MediaFileRef {
  id: number;
  url: string;
  /** Unique per upload (the provider's file name stem). */
  hash?: string | null;
  /** The upload provider that holds it ('local' for public/uploads). */
  provider?: string;
  mime?: string;
  size?: number;
  name?: string;
}

export interface NarrationRow extends NarrationJobState {
  id: number;
  documentId: string;
  articleId: string;
  contentType: string;
  targetDocumentId: string;
  targetLocale: string | null;
  title: string | null;
  voiceId: string | null;
  preprocessType: string | null;
  characters: number;
  credits: number;
  /** How long the stored audio plays (from its MP3 frames; the last subtitle cue for rows stored before it was read from the MP3); null until stored. */
  durationSeconds?: number | null;
  /** The stored MP3's exact length in bytes; null until stored, and for rows stored before the column existed. */
  audioBytes?: number | null;
  /** The chapters of the stored audio (its headings); null when it has none. */
  chapters?: Chapter[] | null;
  nextAttemptAt: string | null;
  leaseOwner: string | null;
  leaseExpiresAt: string | null;
  submittedAt: string | null;
  callbackDeadline: string | null;
  pendingResult: { audioFile: string; srtFile: string; receivedAt: string } | null;
  lastError: string | null;
  lastErrorCode: string | null;
  creditsMayBeLost: boolean;
  completedAt: string | null;
  updatedAt: string;
  audio?: MediaFileRef | null;
  subtitles?: MediaFileRef | null;
  subtitlesVtt?: MediaFileRef | null;
  /** Uploads of a store not yet linked, and files a store replaced not yet removed (narration/file-links.ts). */
  pendingUploads?: MediaFileRef[] | null;
  replacedFiles?: MediaFileRef[] | null;
}

export interface ContentVersion {
  articleId: string;
  contentType: string;
  documentId: string;
  locale: string | null;
  title: string;
  fingerprint: string;
  voiceId: string;
  preprocessType: PreprocessType;
  characters: number;
  credits: number;
}

/** The columns of a row that lists of documents show (admin statuses, the lexicon's affected list). */
const LIST_COLUMNS = [
  'id',
  'articleId',
  'contentType',
  'targetDocumentId',
  'targetLocale',
  'status',
  'title',
  'voiceId',
  'preprocessType',
  'characters',
  'credits',
  'attempts',
  'regenerate',
  'lastError',
  'lastErrorCode',
  'creditsMayBeLost',
  'narratedFingerprint',
  'nextAttemptAt',
  'submittedAt',
  'completedAt',
  'updatedAt',
] as const satisfies ReadonlyArray<keyof NarrationRow>;

export type NarrationListRow = Pick<NarrationRow, (typeof LIST_COLUMNS)[number]>;

/** The state of an article that has never been narrated (spec 3.1 "new"). */
const NEW_JOB: NarrationJobState = {
  status: 'cancelled',
  fingerprint: null,
  submittedFingerprint: null,
  narratedFingerprint: null,
  regenerate: false,
  attempts: 0,
  submissions: 0,
  seenResults: [],
};

/** Statuses of a narration on its way: the worker only ever looks for these. */
const ACTIVE_STATUSES = ['queued', 'submitting', 'awaiting_callback', 'storing'] as const;
const ARCHIVE_COUNTS_MS = 60_000;

const MEDIA_POPULATE = { audio: true, subtitles: true, subtitlesVtt: true } as const;
/** The narration's files and the others the row holds until they are removed. */
const ALL_FILES_POPULATE = { ...MEDIA_POPULATE, pendingUploads: true, replacedFiles: true } as const;

const MEDIA_FIELDS = ['audio', 'subtitles', 'subtitlesVtt'] as const;

export type ApplyOutcome =
  /** `replaced`: when the patch linked files, the ones waiting to be removed (those it unlinked among them; the caller removes them). */
  { applied: true; row: NarrationRow; replaced: MediaFileRef[] } | { applied: false; reason: string };

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
 * `onCommitted` hears of every state change that was written, once, by the writer whose update
 * won (the webhook events are announced from there). It must return at once and never throw;
 * a listener that does throw is logged, the write stands.
 */
export function createJobsRepository(strapi: Core.Strapi, onCommitted: (change: CommittedChange) => void = () => undefined) {
  const query = () => strapi.db.query(NARRATION_UID);

  function committed(change: CommittedChange) {
    try {
      onCommitted(change);
    } catch (error) {
      strapi.log.error(`[speech] a listener of ${change.row.articleId}'s ${change.event.type} failed: ${(error as Error).message}`);
    }
  }

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

  /**
   * Writes a patch if the row is still in an expected state. Media links in the patch are written
   * in the same transaction, after the conditional update has won: the row's scalar fields and its
   * files change together or not at all, the linked files leave `pendingUploads` and the unlinked
   * ones join `replacedFiles` (file-links.ts). In PostgreSQL the conditional UPDATE locks the row,
   * so a concurrent delete (see removeWithMedia) waits for the links and then sees them.
   */
  async function conditionalUpdate(
    id: number,
    from: NarrationStatus[],
    patch: NarrationJobPatch,
    guard: TransitionGuard = {}
  ): Promise<{ won: boolean; replaced: MediaFileRef[] }> {
    const links = Object.fromEntries(
      MEDIA_FIELDS.filter((field) => patch[field] !== undefined).map((field) => [field, patch[field]])
    ) as Partial<MediaLinks>;
    const scalar = Object.fromEntries(Object.entries(patch).filter(([key]) => !(MEDIA_FIELDS as readonly string[]).includes(key)));
    const where = conditionalWhere(id, from, guard);
    if (Object.keys(links).length === 0) {
      const { count } = await query().updateMany({ where, data: scalar });
      return { won: count === 1, replaced: [] };
    }
    return strapi.db.transaction(async () => {
      const { count } = await query().updateMany({ where, data: scalar });
      if (count !== 1) return { won: false, replaced: [] };
      const { pendingUploads, replacedFiles, toRemove } = linkStoredFiles(
        (await findById(id, ALL_FILES_POPULATE)) ?? {},
        links as MediaLinks
      );
      await query().update({ where: { id }, data: { ...links, pendingUploads, replacedFiles } });
      return { won: true, replaced: toRemove };
    });
  }

  /** Applies one state-machine event to a row; `applied: false` when the machine ignores it or another writer won. */
  async function apply(row: NarrationRow, event: NarrationEvent): Promise<ApplyOutcome> {
    const result = transition(row, event);
    if (result.kind === 'ignore') return { applied: false, reason: result.reason };
    const { won, replaced } = await conditionalUpdate(row.id, result.from, result.patch, result.guard);
    if (!won) return { applied: false, reason: 'the row changed under us (another worker or callback won)' };
    const { audio, subtitles, subtitlesVtt, ...scalar } = result.patch;
    const linked = audio === undefined ? {} : { audio: { id: audio }, subtitles: { id: subtitles }, subtitlesVtt: { id: subtitlesVtt } };
    const after: NarrationRow = { ...row, ...(serialise(scalar) as Partial<NarrationRow>), ...(linked as Partial<NarrationRow>) };
    committed({ event, from: result.from, patch: result.patch, row: after });
    return { applied: true, row: after, replaced };
  }

  /**
   * Records a new version of an article's content (publish or save). One write at most: none when
   * the same text, voice and mode are already narrated or queued.
   */
  async function recordContentVersion(version: ContentVersion, now = new Date()): Promise<ApplyOutcome> {
    const details = {
      contentType: version.contentType,
      targetDocumentId: version.documentId,
      targetLocale: version.locale,
      title: version.title.slice(0, 255),
      voiceId: version.voiceId,
      preprocessType: version.preprocessType,
      characters: version.characters,
      credits: version.credits,
    };
    const changed: NarrationEvent = { type: 'contentChanged', fingerprint: version.fingerprint, now };
    const existing = await findByArticleId(version.articleId);
    if (!existing) {
      const result = transition(NEW_JOB, changed);
      if (result.kind === 'ignore') return { applied: false, reason: result.reason };
      try {
        // Through the query engine, not the Document Service: the queue's rows are internal, and the
        // Document Service would announce each one as an `entry.create` event, read back with its
        // media populated in a promise nobody awaits (a database gone at that moment crashes the
        // process). The query engine gives it its documentId, and reads the inserted row back.
        const row = (await query().create({
          data: { articleId: version.articleId, ...details, ...result.patch, seenResults: [], publishedAt: new Date() },
        })) as NarrationRow;
        committed({ event: changed, from: result.from, patch: result.patch, row });
        return { applied: true, row, replaced: [] };
      } catch (error) {
        // Two publishes of one article at once: the database's unique index on article_id (the
        // schema's `column.unique`; Strapi's own `unique` is only a check before the insert) lets one win.
        const raced = await findByArticleId(version.articleId);
        if (!raced) throw error;
        return recordContentVersion(version, now);
      }
    }
    const result = transition(existing, changed);
    if (result.kind === 'ignore') return { applied: false, reason: result.reason };
    // The figures describe the version about to be narrated; while an older one is in flight they wait.
    const inFlight = IN_FLIGHT_STATUSES.includes(existing.status) || existing.status === 'storing';
    const patch = inFlight ? result.patch : { ...result.patch, ...details };
    const { won } = await conditionalUpdate(existing.id, result.from, patch, result.guard);
    if (!won) return recordContentVersion(version, now);
    const row: NarrationRow = { ...existing, ...(serialise(patch) as Partial<NarrationRow>) };
    committed({ event: changed, from: result.from, patch, row });
    return { applied: true, row, replaced: [] };
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

  async function setFigures(
    id: number,
    figures: Partial<Pick<NarrationRow, 'characters' | 'credits' | 'voiceId' | 'preprocessType' | 'title' | 'fingerprint'>>
  ) {
    await query().update({ where: { id }, data: figures });
  }

  /**
   * One page of a type's narrations that have stored audio, newest audio first (a podcast feed), with
   * what a feed item needs of their files. `locale` null: every locale.
   */
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
   * Records the byte length of audio stored before the column existed, once measured. Only where it
   * is still unknown: a narration stored meanwhile has written its own file's length.
   */
  async function recordAudioBytes(id: number, audioBytes: number): Promise<void> {
    await query().updateMany({ where: { id, audioBytes: { $null: true } }, data: { audioBytes } });
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

  /** The uploads of stores that did not link them (the row's lease holder removes them before its own). */
  async function pendingUploadsOf(id: number): Promise<MediaFileRef[]> {
    return (await findById(id, { pendingUploads: true }))?.pendingUploads ?? [];
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
      const row = await findById(id, ALL_FILES_POPULATE);
      await query().delete({ where: { id } });
      return row ? allFiles(row) : [];
    });
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
    apply,
    recordContentVersion,
    claimable,
    countInFlight,
    withExpiredLease,
    withCallbackOverdue,
    readyToStore,
    setFigures,
    findForDocuments,
    findForDocument,
    pendingUploadsOf,
    withReplacedFilesWaiting,
    removeWithMedia,
    countByStatus,
    hasActiveRows,
    recentAverageCharacters,
    withAudioNewestFirst,
    changeStamp,
    recordAudioBytes,
  };
}

/** Dates in a patch come back from the database as ISO strings; keep the in-memory copy alike. */
function serialise(patch: NarrationJobPatch): Record<string, unknown> {
  return Object.fromEntries(Object.entries(patch).map(([key, value]) => [key, value instanceof Date ? value.toISOString() : value]));
}

export type JobsRepository = ReturnType<typeof createJobsRepository>;
