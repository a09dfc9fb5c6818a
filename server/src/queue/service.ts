import { AUTOMATIC, type Origin } from '../credits';
import type { ContentVersion, MediaFileRef, NarrationRow } from './domain/narration-row';
import { partsAtHand, partsProgress } from './domain/part-plan';
import { createMediaStore } from './media/media';
import { localPathOf } from './media/stored-files';
import { createNarrationRows } from './rows/narration-rows';
import type { ApplyOutcome, CommittedChange } from './rows/row-change';
import type { ViewReads } from './rows/narration-rows.reads';
import { createPartRows } from './rows/part-rows';
import { createQueueState } from './worker/queue-state';
import { createWorker, type WorkerDeps } from './worker/worker';

export interface QueueDeps extends Omit<WorkerDeps, 'repository' | 'parts' | 'queueState' | 'media' | 'now'> {
  /** Hears each committed change of a narration row once; it must return at once. */
  onCommitted: (change: CommittedChange) => void;
}

export interface Enqueued {
  queued: boolean;
  reason?: string;
}

/**
 * The narration queue as the other features ask of it: a version recorded, a narration regenerated,
 * cancelled or forgotten, the service's callbacks, and rows read for views. Its rows, parts, files
 * and worker stay inside: every state change goes through the queue's own table of transitions.
 */
export function createQueue(deps: QueueDeps) {
  const { strapi, config } = deps;
  const rows = createNarrationRows(strapi, deps.onCommitted);
  const parts = createPartRows(strapi);
  const media = createMediaStore(strapi, config, async () => (await deps.settings.get()).siteName);
  const state = createQueueState(strapi);
  const worker = createWorker({ ...deps, repository: rows, parts, queueState: state, media });
  const reads: ViewReads = rows;

  const enqueued = (outcome: ApplyOutcome): Enqueued => {
    if (!outcome.applied) return { queued: false, reason: outcome.reason };
    worker.wake();
    return { queued: true };
  };

  return {
    /** The rows as views read them; writes go through the verbs below. */
    reads,

    /** A published version: queued unless the same one is recorded already. */
    record: async (version: ContentVersion, origin: Origin = AUTOMATIC) =>
      enqueued(await rows.recordContentVersion(version, new Date(), origin)),

    /** A paid take of the whole article. */
    async regenerate(row: NarrationRow, origin: Origin): Promise<Enqueued> {
      // Named first: the worker may take the row as soon as the regenerate is written.
      await rows.setOrigin(row.id, origin);
      return enqueued(await rows.apply(row, { type: 'regenerateRequested', now: new Date() }));
    },

    /** A paid take of some stored parts; the others are read back from the stored audio. */
    async regenerateParts(row: NarrationRow, keys: readonly string[], origin: Origin): Promise<Enqueued> {
      await rows.setOrigin(row.id, origin);
      return enqueued(await rows.apply(row, { type: 'partsRegenerateRequested', keys: [...keys], now: new Date() }));
    },

    async cancel(row: NarrationRow) {
      await rows.apply(row, { type: 'cancelled' });
      await parts.removeForNarration(row.id);
    },

    /** The row, its parts and its files go. */
    async forget(row: Pick<NarrationRow, 'id'>) {
      await parts.removeForNarration(row.id);
      // The files linked when the row is deleted, not when it was read: a download may finish in between.
      await media.remove(await rows.removeWithMedia(row.id));
    },

    recordAudioBytes: rows.recordAudioBytes,
    keepFeedGuid: rows.keepFeedGuid,

    /** Before any other use at start-up: rows of an older version gain the columns it added. */
    prepare: () => rows.backfillFirstCompleted(),

    /** A document's narrations, a segmented one with how many of its parts are ready. */
    async forDocument(uid: string, documentId: string): Promise<Array<NarrationRow & { parts?: { total: number; ready: number } }>> {
      return Promise.all(
        (await rows.findForDocument(uid, documentId)).map(async (row) => {
          if (row.narrationMode !== 'segmented' || !row.segmentPlan) return row;
          const progress = partsProgress(row.segmentPlan, partsAtHand(row), await parts.forNarration(row.id));
          return { ...row, parts: { total: progress.total, ready: progress.ready } };
        })
      );
    },

    /** A narration's part rows, for what its next take would ask. */
    partsOf: (narrationId: number) => parts.forNarration(narrationId),

    /** Paused or running, and the balance the service last reported, as every instance sees it. */
    readState: () => state.read(),
    /** Requests the service is generating, whole articles and parts, against `maxInFlight`. */
    async inFlight() {
      const [whole, inParts] = await Promise.all([rows.countInFlight(), parts.countInFlight()]);
      return { count: whole + inParts, cap: config.maxInFlight };
    },
    async resume() {
      const resumed = await state.update({ paused: false, pausedUntil: null, pauseCode: null, pauseReason: null });
      worker.wake();
      return resumed;
    },

    readableUrl: (file: MediaFileRef) => media.readableUrl(file),
    /** A stored file on this disk: the local provider's own, or downloaded into `workDir`. */
    localCopy: (file: MediaFileRef, options: Parameters<typeof localPathOf>[3]) => localPathOf(strapi, media, file, options),

    receiveCallback: worker.receiveCallback,
    wake: worker.wake,
    start: worker.start,
    stop: worker.stop,
  };
}

export type Queue = ReturnType<typeof createQueue>;
