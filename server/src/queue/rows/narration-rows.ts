import type { Core } from '@strapi/strapi';
import type { Origin } from '../../credits';
import type { NarrationRow } from '../domain/narration-row';
import { NARRATION_UID } from '../../content-types';
import { transition, type NarrationEvent } from '../domain/states';
import { createConditionalUpdate, rowAfter } from './compare-and-set';
import { createNarrationFileLinks } from './file-links';
import { createNarrationRowReads, narrationQuery } from './narration-rows.reads';
import { createVersionRecorder } from './record-version';
import type { ApplyOutcome, CommittedChange } from './row-change';

export type { ContentVersion, MediaFileRef, NarrationListRow, NarrationRow } from '../domain/narration-row';
export type { ApplyOutcome, CommittedChange } from './row-change';

/** The only code that writes narration rows: every state change goes through `states.transition` as a compare-and-set. */

/** `onCommitted` hears of each written change once; it must return at once, and a throwing listener is logged. */
export function createNarrationRows(strapi: Core.Strapi, onCommitted: (change: CommittedChange) => void = () => undefined) {
  const query = narrationQuery(strapi);
  const reads = createNarrationRowReads(strapi);
  const fileLinks = createNarrationFileLinks(strapi, reads);
  const conditionalUpdate = createConditionalUpdate(strapi, fileLinks);

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

  const recordContentVersion = createVersionRecorder({ query, findByArticleId: reads.findByArticleId, conditionalUpdate, committed });

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

  /** Once, never replaced: the first guid a feed served stays the item's. Returns the one kept (another instance's, if it was first). */
  async function keepFeedGuid(id: number, feedGuid: string): Promise<string> {
    const { count } = await query().updateMany({ where: { id, feedGuid: { $null: true } }, data: { feedGuid } });
    if (count > 0) return feedGuid;
    const row = (await query().findOne({ where: { id }, select: ['feedGuid'] })) as { feedGuid: string | null } | null;
    return row?.feedGuid ?? feedGuid;
  }

  /** Rows stored before `firstCompletedAt` existed take their latest store's time, the date their feed item showed. */
  async function backfillFirstCompleted(): Promise<void> {
    // At every start, not once: an instance of an older version may still be storing beside this one.
    const meta = strapi.db.metadata.get(NARRATION_UID);
    const column = (attribute: string) => (meta.attributes[attribute] as { columnName?: string }).columnName ?? attribute;
    const knex = strapi.db.connection;
    await knex(meta.tableName)
      .whereNull(column('firstCompletedAt'))
      .whereNotNull(column('completedAt'))
      .update({ [column('firstCompletedAt')]: knex.ref(column('completedAt')) });
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
    keepFeedGuid,
    backfillFirstCompleted,
    pendingUploadsOf,
    withReplacedFilesWaiting,
    removeWithMedia,
  };
}

export type NarrationRows = ReturnType<typeof createNarrationRows>;
