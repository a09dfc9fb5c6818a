import type { Core } from '@strapi/strapi';
import type { NarrationTrigger, SpeechSettings } from '../../../shared/contracts/settings';
import { verifyCallbackSignature, type SpeechClientConfig } from '../speech-client';
import { AUTOMATIC, type Origin, type LedgerService } from '../credits';
import { versionUnrecorded } from './domain/reconcile';
import type { SettingsService } from '../settings';
import type {
  QueueConfig,
  MediaStore,
  NarrationEvent,
  NarrationState,
  NarrationStatus,
  NarrationRows,
  NarrationWorker,
  PartRows,
  ResultUrls,
} from '../queue';
import type { NarrationConfig } from './config';
import type { ContentReader } from './content';
import type { PendingRecordings } from './pending-recordings';
import type { VoiceChoices, VoiceOverrides } from './voice-overrides';
import type { Passage } from '../passages';
import { createReconciler } from './reconciler';

/**
 * Publish and record, the narration's main line: a published version is recorded in the queue
 * (`narration-rows`), the `worker` submits it and stores its files, and the service's callback is verified
 * and recorded here. Also the lifecycle of the worker and the reconciliation. What editors do by
 * hand is narration-editor.service.ts; what front ends read is narration-views.service.ts.
 */

export interface CallbackInput {
  articleId: string;
  audioFile: string | null;
  srtFile: string | null;
  signature: string;
}

export type CallbackOutcome =
  | { status: 'unauthorized' }
  /** `checking`: a callback without files, to be checked with the service before it counts (domain/states/callback.ts). */
  | { status: 'accepted' | 'duplicate' | 'checking' | 'failure-recorded' | 'ignored'; reason?: string };

type CallbackRow = Pick<NarrationState, 'seenResults' | 'noAudioCheck'> & { articleId: string; pendingResult?: ResultUrls | null };

/** How long a callback waits for the answer of a submission under way to be recorded (settledRow). */
const SUBMISSION_SETTLE_MS = 3_000;

/**
 * The row a callback is for, once a submission of it under way has its answer recorded: a
 * re-delivery's callback (a check of a callback without files, a lost callback asked again) is
 * sent with the 202 that announces it, and can overtake the worker's write of that 202; the row
 * would not await it yet and the result would be lost until the callback timeout. The write comes
 * a moment after the answer: this waits for it, a few seconds at most.
 */
async function settledRow<Row extends { status: NarrationStatus }>(read: () => Promise<Row | null>): Promise<Row | null> {
  const deadline = Date.now() + SUBMISSION_SETTLE_MS;
  let row = await read();
  while (row?.status === 'submitting' && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    row = await read();
  }
  return row;
}

/**
 * A verified callback on an article's or a part's row: a result to store (or join), a failure to
 * retry, or a duplicate or replay that changes nothing. `moved` hears of a change that was written.
 */
async function recordCallback(
  input: CallbackInput,
  row: CallbackRow,
  on: {
    apply: (
      event: NarrationEvent
    ) => Promise<{ applied: true; row: Pick<NarrationState, 'status' | 'noAudioCheck'> } | { applied: false; reason: string }>;
    latest: () => Promise<CallbackRow | null>;
    moved: (status: NarrationStatus) => void;
  },
  { maxAttempts, noAudioGraceMs }: Pick<QueueConfig, 'maxAttempts' | 'noAudioGraceMs'>
): Promise<CallbackOutcome> {
  const now = new Date();
  if (input.audioFile && input.srtFile) {
    const urls = { audioFile: input.audioFile, srtFile: input.srtFile };
    const outcome = await on.apply({ type: 'callbackWithFiles', urls, graceMs: noAudioGraceMs, now });
    if (outcome.applied) {
      on.moved(outcome.row.status);
      return { status: 'accepted' };
    }
    const latest = await on.latest();
    const known =
      latest?.pendingResult?.audioFile === urls.audioFile ||
      (latest?.seenResults ?? []).some((seen) => seen.audioFile === urls.audioFile && seen.srtFile === urls.srtFile);
    return { status: known ? 'duplicate' : 'ignored', reason: outcome.reason };
  }
  const outcome = await on.apply({ type: 'callbackWithoutFiles', maxAttempts, graceMs: noAudioGraceMs, now });
  if (!outcome.applied) {
    // Another one while a check is on its way (a replay, or a duplicate): only the check's answer counts.
    const checking = Boolean((await on.latest())?.noAudioCheck);
    return { status: checking ? 'checking' : 'ignored', reason: outcome.reason };
  }
  on.moved(outcome.row.status);
  return { status: outcome.row.noAudioCheck ? 'checking' : 'failure-recorded' };
}

export interface NarrationsServiceDeps {
  strapi: Core.Strapi;
  /** The reconciliation's timing, the callback's signing key, and the queue's rules a callback applies. */
  config: Pick<NarrationConfig, 'reconcileIntervalMs' | 'reconcileSettleMs'> &
    Pick<QueueConfig, 'worker' | 'maxAttempts' | 'noAudioGraceMs'> &
    Pick<SpeechClientConfig, 'apiKey'>;
  settings: SettingsService;
  rows: NarrationRows;
  parts: PartRows;
  content: ContentReader;
  media: MediaStore;
  voiceOverrides: VoiceOverrides;
  worker: NarrationWorker;
  pendingRecordings: PendingRecordings;
  ledger: Pick<LedgerService, 'callbackReceived'>;
  /** The checks of verified narration (verification/): they go with their narration. */
  checks: { removeForNarrations: (narrationIds: readonly number[]) => Promise<void> };
}

export function createNarrationsService({
  strapi,
  config,
  settings,
  rows: repository,
  parts,
  content,
  media,
  voiceOverrides,
  worker,
  pendingRecordings,
  ledger,
  checks,
}: NarrationsServiceDeps) {
  const pending = new Set<Promise<unknown>>();
  let stopping: Promise<void> | null = null;
  const reconciler = createReconciler({
    strapi,
    intervalMs: config.reconcileIntervalMs,
    settleMs: config.reconcileSettleMs,
    narratedTypes: async () =>
      Object.entries((await settings.get()).contentTypes)
        .filter(
          ([uid, narration]) => Boolean(narration.trigger) && narration.trigger !== 'off' && uid.startsWith('api::') && content.exists(uid)
        )
        .map(([uid]) => uid),
    isLocalized: content.isLocalized,
    record: (uid, documentId, locale) => service.recordFromDocument(uid, documentId, locale, { reconciling: true }),
    pending: pendingRecordings,
  });

  /**
   * An editor's passage voices whose passage neither the version just recorded nor the draft has
   * any more go: an article's choices then stay as many as its passages. The draft is read only
   * when some choice is missing from the recorded version.
   */
  async function prunePassageChoices(
    uid: string,
    documentId: string,
    locale: string | null,
    passages: readonly Passage[] | null,
    choices: VoiceChoices,
    current: SpeechSettings
  ) {
    if (!passages) return;
    const keys = (list: readonly Passage[] | null) => new Set((list ?? []).map((passage) => passage.key));
    const recorded = keys(passages);
    const stale = Object.keys(choices.passages ?? {}).filter((key) => !recorded.has(key));
    if (stale.length === 0) return;
    const draft = await content.loadDraft(uid, documentId, locale);
    const drafted = draft ? keys(content.describe(uid, draft, current.contentTypes[uid], current, choices).passages) : new Set<string>();
    await voiceOverrides.removePassages(
      content.articleIdFor(uid, documentId, draft?.locale ?? locale),
      stale.filter((key) => !drafted.has(key))
    );
  }

  const service = {
    /** Keeps a detached promise (an after-commit enqueue) so shutdown and tests can wait for it. */
    track<T>(promise: Promise<T>): Promise<T> {
      pending.add(promise);
      void promise.finally(() => pending.delete(promise));
      return promise;
    },
    async settled(): Promise<void> {
      while (pending.size) await Promise.allSettled([...pending]);
    },

    async triggerFor(uid: string): Promise<NarrationTrigger | null> {
      const narrated = (await settings.get()).contentTypes[uid];
      return narrated ? (narrated.trigger ?? null) : null;
    },

    /**
     * Reads the live version of a document and records it; no network, at most one write.
     * `reconciling`: only a version that was never recorded (see reconcile.ts), never a retry.
     */
    async recordFromDocument(
      uid: string,
      documentId: string,
      locale: string | null,
      { reconciling = false, origin = AUTOMATIC }: { reconciling?: boolean; origin?: Origin } = {}
    ): Promise<{ queued: boolean; reason?: string }> {
      const current = await settings.get();
      const narration = current.contentTypes[uid];
      if (!narration) return { queued: false, reason: 'this content type is not narrated' };
      const entry = await content.loadLive(uid, documentId, locale);
      if (!entry) return { queued: false, reason: 'the content is not published' };
      const choices = await voiceOverrides.choices(content.articleIdFor(uid, documentId, entry.locale ?? locale));
      const version = content.describe(uid, entry, narration, current, choices);
      if (reconciling && !versionUnrecorded(await repository.findByArticleId(version.articleId), version)) {
        return { queued: false, reason: 'this version is already recorded' };
      }
      const outcome = await repository.recordContentVersion(version, new Date(), origin);
      if (outcome.applied) worker.wake();
      await prunePassageChoices(uid, documentId, locale, version.passages, choices, current);
      return outcome.applied ? { queued: true } : { queued: false, reason: outcome.reason };
    },

    async cancelDocument(uid: string, documentId: string, locale: string | null) {
      for (const row of await repository.findForDocument(uid, documentId)) {
        if (locale && row.targetLocale !== locale) continue;
        await repository.apply(row, { type: 'cancelled' });
        await parts.removeForNarration(row.id);
      }
    },

    /** The document is gone: its narrations and their files go too. */
    async forgetDocument(uid: string, documentId: string, locale: string | null) {
      for (const row of await repository.findForDocument(uid, documentId)) {
        if (locale && row.targetLocale !== locale) continue;
        await parts.removeForNarration(row.id);
        // The files linked when the row is deleted, not when it was read: a download may finish in between.
        await media.remove(await repository.removeWithMedia(row.id));
        await checks.removeForNarrations([row.id]);
      }
      await voiceOverrides.removeForDocument(uid, documentId, content.isLocalized(uid) ? locale : null);
    },

    /** Verifies and records a callback; storing the files happens after the response. */
    async receiveCallback(input: CallbackInput): Promise<CallbackOutcome> {
      if (!config.apiKey || !verifyCallbackSignature(config.apiKey, input)) return { status: 'unauthorized' };
      const outcome = await service.recordVerifiedCallback(input);
      // The request it answers is settled in the ledger whatever the row made of it (a cancelled
      // article's callback still says what the service charged). A refund is settled before the
      // answer: should that fail, the 500 makes the service send the callback again, and the
      // ledger settles then. A result (the common case, many at once after a backlog) is settled
      // right after the answer, off the path the service waits on; only a crash in between leaves
      // its entry pending, still counted as spent (ledger.service.ts settles it when the articleId
      // is next accepted). A callback without files being checked (or held) settles nothing: the check's
      // answer will, or the hold's end (worker.ts).
      if (outcome.status === 'checking') return outcome;
      const withFiles = Boolean(input.audioFile && input.srtFile);
      const settle = () => ledger.callbackReceived(input.articleId, withFiles, new Date());
      if (!withFiles) await settle();
      else {
        void service.track(
          settle().catch((error) =>
            strapi.log.error(`[speech] ${input.articleId}: the ledger did not settle its result: ${(error as Error).message}`)
          )
        );
      }
      return outcome;
    },

    /** A callback whose signature holds, on its article's or its part's row. */
    async recordVerifiedCallback(input: CallbackInput): Promise<CallbackOutcome> {
      const row = await settledRow(() => repository.findByArticleId(input.articleId));
      if (row) {
        return recordCallback(
          input,
          row,
          {
            apply: (event) => repository.apply(row, event),
            latest: () => repository.findByArticleId(input.articleId),
            moved: () => worker.wake(),
          },
          config
        );
      }
      // A part of a segmented narration: its article moves on once every part is in (or one failed).
      const part = await settledRow(() => parts.findByArticleId(input.articleId));
      if (!part) return { status: 'ignored', reason: 'no narration awaits this article' };
      return recordCallback(
        input,
        part,
        {
          apply: (event) => parts.apply(part, event),
          latest: () => parts.findByArticleId(input.articleId),
          moved: (status) => {
            if (status === 'storing' && input.audioFile && input.srtFile)
              worker.fetchPart({ audioFile: input.audioFile, srtFile: input.srtFile });
            if (status === 'storing' || status === 'failed') void service.track(worker.settle(part.narrationId).then(() => worker.wake()));
            else worker.wake();
          },
        },
        config
      );
    },

    async start() {
      const moved = await voiceOverrides.migrateLegacyStore();
      if (moved) strapi.log.info(`[speech] moved ${moved} voice override(s) from the plugin store to their own table`);
      if (config.worker) {
        worker.start();
        reconciler.start();
      }
    },
    /** One reconciliation pass now (tests; the timer runs them otherwise). */
    reconcile: () => reconciler.runOnce(),
    /** Idempotent: a second call waits for the first shutdown instead of racing it. */
    stop() {
      stopping ??= (async () => {
        await reconciler.stop();
        await worker.stop();
        await this.settled();
      })();
      return stopping;
    },
  };
  return service;
}

export type NarrationsService = ReturnType<typeof createNarrationsService>;
