import type { Core } from '@strapi/strapi';
import { NARRATION_UID } from '../content-types';
import type { PreprocessType } from './cost';
import {
  IN_FLIGHT_STATUSES,
  transition,
  type NarrationEvent,
  type NarrationJobPatch,
  type NarrationJobState,
  type NarrationStatus,
} from './states';

/**
 * The only code that writes narration rows. Every state change goes through `states.transition`
 * and lands as a conditional update (`WHERE id = ? AND status IN (...)`), which is atomic in
 * SQLite and PostgreSQL alike: of two instances or two duplicate callbacks racing for one row,
 * exactly one sees `count === 1`.
 */

export interface MediaFileRef {
  id: number;
  url: string;
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
  /** Length of the stored audio (end of the last subtitle cue); null until stored. */
  durationSeconds?: number | null;
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

const MEDIA_POPULATE = { audio: true, subtitles: true, subtitlesVtt: true } as const;

export type ApplyOutcome = { applied: true; row: NarrationRow } | { applied: false; reason: string };

export function createJobsRepository(strapi: Core.Strapi) {
  const query = () => strapi.db.query(NARRATION_UID);

  async function findByArticleId(articleId: string, withMedia = false): Promise<NarrationRow | null> {
    return (await query().findOne({ where: { articleId }, populate: withMedia ? MEDIA_POPULATE : undefined })) as NarrationRow | null;
  }

  async function findById(id: number, withMedia = false): Promise<NarrationRow | null> {
    return (await query().findOne({ where: { id }, populate: withMedia ? MEDIA_POPULATE : undefined })) as NarrationRow | null;
  }

  async function conditionalUpdate(id: number, from: NarrationStatus[], patch: NarrationJobPatch): Promise<boolean> {
    const { count } = await query().updateMany({ where: { id, status: { $in: from } }, data: patch as Record<string, unknown> });
    return count === 1;
  }

  /** Applies one state-machine event to a row; `applied: false` when the machine ignores it or another writer won. */
  async function apply(row: NarrationRow, event: NarrationEvent): Promise<ApplyOutcome> {
    const result = transition(row, event);
    if (result.kind === 'ignore') return { applied: false, reason: result.reason };
    const won = await conditionalUpdate(row.id, result.from, result.patch);
    if (!won) return { applied: false, reason: 'the row changed under us (another worker or callback won)' };
    return { applied: true, row: { ...row, ...(serialise(result.patch) as Partial<NarrationRow>) } };
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
    const existing = await findByArticleId(version.articleId);
    if (!existing) {
      const result = transition(NEW_JOB, { type: 'contentChanged', fingerprint: version.fingerprint, now });
      if (result.kind === 'ignore') return { applied: false, reason: result.reason };
      try {
        const created = await strapi.documents(NARRATION_UID).create({
          data: { articleId: version.articleId, ...details, ...result.patch, seenResults: [] } as never,
        });
        return { applied: true, row: (await findByArticleId(created.articleId as string)) as NarrationRow };
      } catch (error) {
        // Two publishes of one article at once: the database's unique index on article_id (the
        // schema's `column.unique`; Strapi's own `unique` is only a check before the insert) lets one win.
        const raced = await findByArticleId(version.articleId);
        if (!raced) throw error;
        return recordContentVersion(version, now);
      }
    }
    const result = transition(existing, { type: 'contentChanged', fingerprint: version.fingerprint, now });
    if (result.kind === 'ignore') return { applied: false, reason: result.reason };
    // The figures describe the version about to be narrated; while an older one is in flight they wait.
    const inFlight = IN_FLIGHT_STATUSES.includes(existing.status) || existing.status === 'storing';
    const patch = inFlight ? result.patch : { ...result.patch, ...details };
    const won = await conditionalUpdate(existing.id, result.from, patch);
    if (!won) return recordContentVersion(version, now);
    return { applied: true, row: { ...existing, ...(serialise(patch) as Partial<NarrationRow>) } };
  }

  async function claimable(now: Date, limit: number): Promise<NarrationRow[]> {
    if (limit <= 0) return [];
    return (await query().findMany({
      where: { status: 'queued', $or: [{ nextAttemptAt: null }, { nextAttemptAt: { $lte: now } }] },
      orderBy: [{ nextAttemptAt: 'asc' }, { id: 'asc' }],
      limit,
    })) as NarrationRow[];
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
    return (await query().findMany({ where: { status: 'awaiting_callback', callbackDeadline: { $lt: now } }, limit: 50 })) as NarrationRow[];
  }

  /** Takes a row in `storing` for this instance (the download runs under a lease, like a submission). */
  async function claimForStoring(row: NarrationRow, owner: string, leaseMs: number, now: Date): Promise<boolean> {
    const { count } = await query().updateMany({
      where: { id: row.id, status: 'storing', leaseOwner: null },
      data: { leaseOwner: owner, leaseExpiresAt: new Date(now.getTime() + leaseMs) },
    });
    return count === 1;
  }

  async function readyToStore(now: Date, limit: number): Promise<NarrationRow[]> {
    return (await query().findMany({
      where: { status: 'storing', leaseOwner: null, $or: [{ nextAttemptAt: null }, { nextAttemptAt: { $lte: now } }] },
      limit,
    })) as NarrationRow[];
  }

  async function linkMedia(id: number, files: { audio: number; subtitles: number; subtitlesVtt: number }): Promise<void> {
    await query().update({ where: { id }, data: files });
  }

  async function setFigures(id: number, figures: Partial<Pick<NarrationRow, 'characters' | 'credits' | 'voiceId' | 'preprocessType' | 'title' | 'fingerprint'>>) {
    await query().update({ where: { id }, data: figures });
  }

  async function findForDocuments(contentType: string, documentIds: string[]): Promise<NarrationRow[]> {
    if (documentIds.length === 0) return [];
    return (await query().findMany({ where: { contentType, targetDocumentId: { $in: documentIds } } })) as NarrationRow[];
  }

  async function findForDocument(contentType: string, documentId: string): Promise<NarrationRow[]> {
    return (await query().findMany({ where: { contentType, targetDocumentId: documentId }, populate: MEDIA_POPULATE })) as NarrationRow[];
  }

  async function remove(id: number): Promise<void> {
    await query().delete({ where: { id } });
  }

  async function countByStatus(): Promise<Record<string, number>> {
    const counts: Record<string, number> = {};
    for (const status of ['queued', 'submitting', 'awaiting_callback', 'storing', 'completed', 'failed', 'cancelled']) {
      counts[status] = await query().count({ where: { status } });
    }
    return counts;
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
    claimForStoring,
    readyToStore,
    linkMedia,
    setFigures,
    findForDocuments,
    findForDocument,
    remove,
    countByStatus,
  };
}

/** Dates in a patch come back from the database as ISO strings; keep the in-memory copy alike. */
function serialise(patch: NarrationJobPatch): Record<string, unknown> {
  return Object.fromEntries(Object.entries(patch).map(([key, value]) => [key, value instanceof Date ? value.toISOString() : value]));
}

export type JobsRepository = ReturnType<typeof createJobsRepository>;
