import type { Core } from '@strapi/strapi';
import { AUTOMATIC, type Origin } from '../../credits';
import { publishedLater, type ContentVersion, type MediaFileRef, type NarrationRow } from '../domain/narration-row';
import {
  IN_FLIGHT_STATUSES,
  transition,
  type NarrationEvent,
  type NarrationPatch,
  type NarrationState,
  type NarrationStatus,
} from '../domain/states';
import { createConditionalUpdate, rowAfter } from './compare-and-set';
import { createNarrationFileLinks } from './file-links';
import { createNarrationRowReads, narrationQuery } from './narration-rows.reads';

export type { ContentVersion, MediaFileRef, NarrationListRow, NarrationRow } from '../domain/narration-row';

export interface CommittedChange {
  event: NarrationEvent;
  from: NarrationStatus[];
  patch: NarrationPatch;
  row: NarrationRow;
}

/** The only code that writes narration rows: every state change goes through `states.transition` as a compare-and-set. */

/** The state of an article that has never been narrated (spec 3.1 "new"). */
const NEW_NARRATION: NarrationState = {
  status: 'cancelled',
  fingerprint: null,
  submittedFingerprint: null,
  narratedFingerprint: null,
  regenerate: false,
  attempts: 0,
  submissions: 0,
  seenResults: [],
};

export type ApplyOutcome =
  /** `replaced`: when the patch linked files, the ones waiting to be removed (those it unlinked among them; the caller removes them). */
  { applied: true; row: NarrationRow; replaced: MediaFileRef[] } | { applied: false; reason: string };

/** `onCommitted` hears of each written change once; it must return at once, and a throwing listener is logged. */
export function createNarrationRows(strapi: Core.Strapi, onCommitted: (change: CommittedChange) => void = () => undefined) {
  const query = narrationQuery(strapi);
  const reads = createNarrationRowReads(strapi);
  const fileLinks = createNarrationFileLinks(strapi, reads);
  const conditionalUpdate = createConditionalUpdate(strapi, fileLinks);
  const { findByArticleId } = reads;

  function committed(change: CommittedChange) {
    try {
      onCommitted(change);
    } catch (error) {
      strapi.log.error(`[speech] a listener of ${change.row.articleId}'s ${change.event.type} failed: ${(error as Error).message}`);
    }
  }

  /** Applies one state-machine event to a row; `applied: false` when the machine ignores it or another writer won. */
  async function apply(row: NarrationRow, event: NarrationEvent): Promise<ApplyOutcome> {
    const result = transition(row, event);
    if (result.kind === 'ignore') return { applied: false, reason: result.reason };
    const { won, replaced } = await conditionalUpdate(row.id, result.from, result.patch, result.guard);
    if (!won) return { applied: false, reason: 'the row changed under us (another worker or callback won)' };
    const after = rowAfter(row, result.patch);
    committed({ event, from: result.from, patch: result.patch, row: after });
    return { applied: true, row: after, replaced };
  }

  /** Outside the state machine: one column, kept to the latest publish when two race. */
  async function noteLivePublish(id: number, livePublishedAt: string): Promise<void> {
    await query().updateMany({
      where: { $and: [{ id }, { $or: [{ livePublishedAt: null }, { livePublishedAt: { $lt: livePublishedAt } }] }] },
      data: { livePublishedAt },
    });
  }

  /** One write at most: none when the same text, voice and mode are already narrated or queued, unless a later publish. */
  async function recordContentVersion(version: ContentVersion, now = new Date(), origin: Origin = AUTOMATIC): Promise<ApplyOutcome> {
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
    const cause = { cause: origin.cause, causedBy: origin.causedBy };
    const existing = await findByArticleId(version.articleId);
    if (!existing) {
      const result = transition(NEW_NARRATION, changed);
      if (result.kind === 'ignore') return { applied: false, reason: result.reason };
      try {
        // The query engine, not the Document Service: that would announce an internal row as `entry.create`
        // and read it back in an unawaited promise (a database gone then crashes the process).
        const row = (await query().create({
          data: {
            articleId: version.articleId,
            ...details,
            ...cause,
            ...result.patch,
            livePublishedAt: version.livePublishedAt,
            seenResults: [],
            publishedAt: new Date(),
          },
        })) as NarrationRow;
        committed({ event: changed, from: result.from, patch: result.patch, row });
        return { applied: true, row, replaced: [] };
      } catch (error) {
        // Two publishes of one article at once: the database's unique index on article_id (the
        // schema's `column.unique`; Strapi's own `unique` is only a check before the insert) lets one win.
        const raced = await findByArticleId(version.articleId);
        if (!raced) throw error;
        return recordContentVersion(version, now, origin);
      }
    }
    const result = transition(existing, changed);
    const laterPublish = publishedLater(version.livePublishedAt, existing.livePublishedAt);
    if (result.kind === 'ignore') {
      if (laterPublish) await noteLivePublish(existing.id, version.livePublishedAt!);
      return { applied: false, reason: result.reason };
    }
    // The figures describe the version about to be narrated; while an older one is in flight they wait.
    const inFlight = IN_FLIGHT_STATUSES.includes(existing.status) || existing.status === 'storing';
    const patch = {
      ...(inFlight ? result.patch : { ...result.patch, ...details }),
      ...cause,
      ...(laterPublish ? { livePublishedAt: version.livePublishedAt } : {}),
    };
    const { won } = await conditionalUpdate(existing.id, result.from, patch, result.guard);
    if (!won) return recordContentVersion(version, now, origin);
    const row = rowAfter(existing, patch);
    committed({ event: changed, from: result.from, patch, row });
    return { applied: true, row, replaced: [] };
  }

  async function setOrigin(id: number, origin: Origin): Promise<void> {
    await query().update({ where: { id }, data: { cause: origin.cause, causedBy: origin.causedBy } });
  }

  /** A write of the error columns only, never of its state; the budget's release clears it. */
  async function noteWaiting(id: number, reason: string, code: string): Promise<void> {
    await query().updateMany({ where: { id, status: 'awaiting_parts' }, data: { lastError: reason, lastErrorCode: code } });
  }

  async function setFigures(
    id: number,
    figures: Partial<
      Pick<NarrationRow, 'characters' | 'credits' | 'voiceId' | 'preprocessType' | 'title' | 'fingerprint' | 'narrationMode'>
    >
  ) {
    await query().update({ where: { id }, data: figures });
  }

  /** Only where still unknown: a narration stored meanwhile has written its own length. */
  async function recordAudioBytes(id: number, audioBytes: number): Promise<void> {
    await query().updateMany({ where: { id, audioBytes: { $null: true } }, data: { audioBytes } });
  }

  const { pendingUploadsOf, withReplacedFilesWaiting, removeWithMedia } = fileLinks;
  return {
    ...reads,
    apply,
    recordContentVersion,
    setFigures,
    setOrigin,
    noteWaiting,
    recordAudioBytes,
    pendingUploadsOf,
    withReplacedFilesWaiting,
    removeWithMedia,
  };
}

export type NarrationRows = ReturnType<typeof createNarrationRows>;
