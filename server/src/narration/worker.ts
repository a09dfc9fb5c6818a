import { randomUUID } from 'node:crypto';
import type { Core } from '@strapi/strapi';
import type { PluginConfig } from '../settings/config-schema';
import type { SettingsService } from '../settings/service';
import { backoffDelay, type SpeechClient } from '../speech-client';
import type { ContentReader } from './content';
import type { JobsRepository, MediaFileRef, NarrationRow } from './jobs.repository';
import { DownloadRefusedError, type MediaStore, type StoredMedia } from './media';
import { createSerialRunner } from '../utils/serial-runner';
import { createFailureEpisodes } from '../utils/failure-episodes';
import { createDispatcherLease } from './dispatcher-lease';
import { planSubmissionFailure } from './domain/submission';
import { chaptersFromCues, type Chapter } from '../subtitles/chapters';
import type { Cue } from '../subtitles/srt';
import type { VoiceOverrides } from './voice-overrides';

/**
 * The queue worker. Each tick: recover expired leases, time out lost callbacks, store accepted
 * results, then submit queued articles while fewer than `maxInFlight` await a callback.
 * Every row it touches is claimed by a conditional update first, so several Strapi instances can
 * run workers against one database without submitting a job twice.
 */

export interface WorkerDeps {
  strapi: Core.Strapi;
  config: PluginConfig;
  repository: JobsRepository;
  settings: SettingsService;
  voiceOverrides: Pick<VoiceOverrides, 'get'>;
  content: ContentReader;
  client: () => SpeechClient;
  media: MediaStore;
  callbackUrl: () => string;
  now?: () => Date;
}

/** Why a store was stopped from outside: its lease was lost, or this instance is shutting down. */
class StoreStopped extends Error {
  constructor(
    readonly why: 'lease-lost' | 'shutdown',
    message: string
  ) {
    super(message);
    this.name = 'StoreStopped';
  }
}

export function createWorker(deps: WorkerDeps) {
  const { strapi, config, repository, settings, voiceOverrides, content, media } = deps;
  const now = deps.now ?? (() => new Date());
  const owner = `${process.pid}-${randomUUID().slice(0, 8)}`;
  let timer: NodeJS.Timeout | null = null;
  let stopped = true;
  const dispatcher = createDispatcherLease(strapi, owner, config.leaseMs);

  const log = (message: string) => strapi.log.info(`[speech] ${message}`);

  async function recoverLeases(at: Date) {
    for (const row of await repository.withExpiredLease(at)) {
      const outcome = await repository.apply(row, { type: 'leaseExpired', now: at });
      if (outcome.applied) log(`recovered ${row.articleId} from an expired lease (${row.status})`);
    }
  }

  async function timeOutCallbacks(at: Date) {
    for (const row of await repository.withCallbackOverdue(at)) {
      await repository.apply(row, { type: 'callbackTimedOut', maxAttempts: config.maxAttempts, now: at });
    }
  }

  /** Downloads run beside the tick, so a slow media host never holds up submissions. */
  const activeStores = new Map<Promise<void>, AbortController>();
  const MAX_PARALLEL_STORES = 2;

  /**
   * Keeps the lease of a row while work goes on under it (a download may outlast leaseMs): renews
   * it every third of leaseMs by a conditional update on the owner. When a renewal loses (the row
   * was cancelled, deleted or taken over) or none has succeeded before the lease ran out, the work
   * is aborted through `controller`, and the worker writes nothing more to the row.
   */
  function holdLease(job: NarrationRow, controller: AbortController) {
    let expiresAt = job.leaseExpiresAt ? Date.parse(job.leaseExpiresAt) : now().getTime() + config.leaseMs;
    let timer: NodeJS.Timeout | null = null;
    let renewing: Promise<void> = Promise.resolve();
    let released = false;

    const renew = async () => {
      const at = now();
      try {
        const outcome = await repository.apply(job, { type: 'leaseRenewed', owner, leaseMs: config.leaseMs, now: at });
        if (!outcome.applied) {
          controller.abort(new StoreStopped('lease-lost', `the row is no longer ours (${outcome.reason})`));
          return;
        }
        expiresAt = at.getTime() + config.leaseMs;
      } catch (error) {
        // The database may be back before the lease runs out; past that, someone else may own the row.
        if (now().getTime() >= expiresAt) {
          controller.abort(new StoreStopped('lease-lost', `the lease could not be renewed: ${(error as Error).message}`));
          return;
        }
      }
      schedule();
    };
    const schedule = () => {
      if (released || controller.signal.aborted) return;
      timer = setTimeout(
        () => {
          renewing = renew();
        },
        Math.max(50, Math.floor(config.leaseMs / 3))
      );
      timer.unref?.();
    };
    schedule();

    return {
      /** Stops renewing (and waits for a renewal on the wire), before the holder's last write. */
      async release() {
        released = true;
        if (timer) clearTimeout(timer);
        await renewing;
      },
    };
  }

  async function storeOne(job: NarrationRow, controller: AbortController) {
    const lease = holdLease(job, controller);
    let stored: StoredMedia;
    try {
      stored = await media.store(job, controller.signal);
    } catch (error) {
      await lease.release();
      if (controller.signal.aborted) return handOff(job, controller);
      const refused = error instanceof DownloadRefusedError;
      const reason = refused
        ? `The narration could not be downloaded: ${(error as Error).message}`
        : `The narration could not be stored: ${(error as Error).message}`;
      const code = refused ? (error as DownloadRefusedError).code : 'STORE_FAILED';
      strapi.log.warn(`[speech] ${job.articleId}: ${reason}`);
      if (refused && (error as DownloadRefusedError).retryable) {
        const retryAt = new Date(now().getTime() + backoffDelay(job.storeAttempts ?? 1));
        await repository.apply(job, { type: 'storeDeferred', owner, retryAt, reason, code, maxAttempts: config.maxAttempts });
      } else {
        await repository.apply(job, { type: 'storeFailed', owner, reason, code });
      }
      return;
    }

    const files = [stored.audio, stored.subtitles, stored.subtitlesVtt];
    await lease.release();
    if (controller.signal.aborted) {
      await media.remove(files);
      return handOff(job, controller);
    }
    // Links the files in the write that completes the row, and only while the lease is ours. Should
    // it fail, the files are not removed here: the write may have committed although its answer was
    // lost (the database went away during the commit). Either they are now the narration, or they
    // are still among the row's pending uploads, which its next store or its deletion removes
    // (file-links.ts).
    const chapters = await chaptersOf(job, stored.cues);
    const outcome = await repository.apply(job, {
      type: 'stored',
      owner,
      files: { audio: stored.audio.id, subtitles: stored.subtitles.id, subtitlesVtt: stored.subtitlesVtt.id },
      durationSeconds: stored.durationSeconds,
      audioBytes: stored.audioBytes,
      chapters,
      now: now(),
    });
    if (!outcome.applied) {
      // Cancelled, deleted or taken over while downloading: nothing links to the new files.
      await media.remove(files);
      log(`did not store ${job.articleId}: ${outcome.reason}`);
      return;
    }
    // Replace, then delete: the old files are removed only once the new ones are linked.
    await removeReplacedFiles(outcome.row, outcome.replaced);
    log(`stored narration of ${job.articleId}`);
  }

  /**
   * Removes the files a store replaced (they wait in the row's `replacedFiles`, file-links.ts),
   * then says so on the row; a file that could not be removed keeps the row listed for next time.
   */
  async function removeReplacedFiles(row: NarrationRow, replaced: MediaFileRef[]) {
    if (await media.remove(replaced)) await repository.apply(row, { type: 'replacedFilesRemoved' });
  }

  /** At start: the replaced files whose removal a crash or a failed delete cut short, on any instance. */
  async function removeReplacedFilesLeft() {
    let afterId = 0;
    while (!stopped) {
      const rows = await repository.withReplacedFilesWaiting(afterId, 50);
      for (const row of rows) await removeReplacedFiles(row, row.replacedFiles ?? []);
      if (rows.length < 50) return;
      afterId = rows[rows.length - 1].id;
    }
  }
  let startupSweep: Promise<void> = Promise.resolve();

  /**
   * The live version of a job's document as it would be narrated now (for the submission, and for
   * the chapters of what is stored); null when it is no longer published or no longer narrated.
   */
  async function describeLive(job: NarrationRow) {
    const current = await settings.get();
    const narration = current.contentTypes[job.contentType];
    const entry = narration ? await content.loadLive(job.contentType, job.targetDocumentId, job.targetLocale) : null;
    if (!narration || !entry) return null;
    return content.describe(job.contentType, entry, narration, current, await voiceOverrides.get(job.articleId));
  }

  /**
   * The chapters of a stored narration: the headings of the text as it is narrated now (the
   * version just read, unless it was edited and published again meanwhile, when only the cues
   * still found in it count), placed on the SRT's cues ('stored' records none as null). None
   * rather than a failed store.
   */
  async function chaptersOf(job: NarrationRow, cues: Cue[]): Promise<Chapter[] | null> {
    try {
      const version = await describeLive(job);
      return version && chaptersFromCues(version.text, version.headings, cues, version.title);
    } catch (error) {
      strapi.log.warn(`[speech] no chapters for ${job.articleId}: ${(error as Error).message}`);
      return null;
    }
  }

  /** A store stopped from outside: a lost lease means hands off; a shutdown hands the row back. */
  async function handOff(job: NarrationRow, controller: AbortController) {
    const reason = controller.signal.reason as StoreStopped | undefined;
    log(`stopped storing ${job.articleId}: ${reason?.message ?? 'aborted'}`);
    if (reason?.why === 'shutdown') await repository.apply(job, { type: 'storeAbandoned', owner, now: now() });
  }

  async function storeResults(at: Date) {
    const free = MAX_PARALLEL_STORES - activeStores.size;
    if (free <= 0) return;
    for (const row of await repository.readyToStore(at, free)) {
      const claimed = await repository.apply(row, {
        type: 'storeClaimed',
        owner,
        leaseMs: config.leaseMs,
        maxAttempts: config.maxAttempts,
        now: now(),
      });
      if (!claimed.applied) continue;
      // Uploads a store left unlinked (it was killed before its final write): the store that made
      // them lost the row's lease, so it can never link them. Removed before any upload of ours.
      await media.remove(await repository.pendingUploadsOf(row.id));
      // The attempts ran out (the claim then marked it failed).
      if (claimed.row.leaseOwner !== owner) continue;
      const controller = new AbortController();
      const task = storeOne(claimed.row, controller)
        .catch((error) => {
          strapi.log.error(`[speech] storing ${row.articleId} failed: ${(error as Error).message}`);
        })
        .finally(() => {
          activeStores.delete(task);
          if (!stopped) void runSoon();
        });
      activeStores.set(task, controller);
    }
  }

  async function submitOne(row: NarrationRow, at: Date) {
    const claimed = await repository.apply(row, { type: 'claimed', owner, leaseMs: config.leaseMs, now: at });
    if (!claimed.applied) return;
    let job = claimed.row;
    const version = await describeLive(job);
    if (!version) {
      await repository.apply(job, {
        type: 'submitRejected',
        reason: 'The content is no longer published or no longer narrated.',
        code: 'NOT_PUBLISHED',
      });
      return;
    }
    if (version.fingerprint !== job.fingerprint || version.characters !== job.characters) {
      await repository.setFigures(job.id, {
        fingerprint: version.fingerprint,
        characters: version.characters,
        credits: version.credits,
        voiceId: version.voiceId,
        preprocessType: version.preprocessType,
        title: version.title.slice(0, 255),
      });
      job = { ...job, fingerprint: version.fingerprint };
    }
    if (version.text.trim() === '') {
      await repository.apply(job, { type: 'submitRejected', reason: 'There is no text to narrate.', code: 'EMPTY_TEXT' });
      return;
    }
    try {
      const response = await deps.client().processText({
        text: version.text,
        postData: {
          name: version.title,
          articleId: job.articleId,
          voiceId: version.voiceId,
          callbackURL: deps.callbackUrl(),
          preprocessType: version.preprocessType,
          regenerate: job.regenerate,
        },
      });
      await repository.apply(job, { type: 'submitAccepted', callbackTimeoutMs: config.callbackTimeoutMs, now: now() });
      if (response.creditsRemaining !== undefined) {
        await settings.updateQueueState({ creditsRemaining: response.creditsRemaining, creditsSeenAt: now().toISOString() });
      }
      log(`submitted ${job.articleId} (${version.characters} characters, ${version.credits} credits, regenerate ${job.regenerate})`);
    } catch (error) {
      const plan = planSubmissionFailure(error, {
        attempt: job.attempts + 1,
        maxAttempts: config.maxAttempts,
        callbackTimeoutMs: config.callbackTimeoutMs,
        now: now(),
      });
      await repository.apply(job, plan.job);
      if (plan.pauseQueue) {
        await settings.updateQueueState({
          paused: true,
          pausedUntil: new Date(now().getTime() + config.creditsPauseMs).toISOString(),
          pauseCode: plan.pauseQueue.code,
          pauseReason: plan.pauseQueue.reason,
          ...(plan.pauseQueue.creditsRemaining !== undefined
            ? {
                creditsRemaining: plan.pauseQueue.creditsRemaining,
                creditsRequired: plan.pauseQueue.creditsRequired ?? null,
                creditsSeenAt: now().toISOString(),
              }
            : {}),
        });
        strapi.log.warn(`[speech] narration queue paused: ${plan.pauseQueue.reason}`);
      } else {
        strapi.log.warn(`[speech] ${job.articleId}: ${(error as Error).message}`);
      }
    }
  }

  async function submitQueued(at: Date) {
    // An idle queue costs one read per tick: the lease (a write) is only taken when there is work.
    const due = await repository.claimable(at, config.maxInFlight);
    if (due.length === 0) return;
    if (!(await dispatcher.acquire(at))) return;
    const queue = await settings.queueState();
    if (queue.paused) {
      if (queue.pausedUntil && new Date(queue.pausedUntil) > at) return;
      // The pause ran out: let one submission probe the balance (or the key) again.
      await settings.updateQueueState({ paused: false, pausedUntil: null });
    }
    const free = config.maxInFlight - (await repository.countInFlight());
    for (const row of due.slice(0, Math.max(0, free))) {
      await submitOne(row, at);
      if ((await settings.queueState()).paused) return;
    }
  }

  async function tick() {
    // Idle: one indexed lookup, however large the archive of completed narrations grows.
    if (activeStores.size === 0 && !(await repository.hasActiveRows())) return;
    const at = now();
    await recoverLeases(at);
    await timeOutCallbacks(at);
    await storeResults(at);
    await submitQueued(at);
  }

  // A database or network outage fails every tick until it ends: one line when it starts, one when it is over.
  const outage = createFailureEpisodes(strapi.log, 'the narration queue');
  const runner = createSerialRunner(tick, {
    onError: outage.failed,
    onSuccess: outage.succeeded,
    isStopped: () => stopped,
  });
  const runSoon = runner.runSoon;

  return {
    owner,
    start() {
      if (!stopped) return;
      stopped = false;
      startupSweep = removeReplacedFilesLeft().catch((error) => {
        strapi.log.warn(`[speech] could not remove the files of replaced narrations: ${(error as Error).message}`);
      });
      const loop = () => {
        timer = setTimeout(async () => {
          await runSoon();
          if (!stopped) loop();
        }, config.pollIntervalMs);
        timer.unref?.();
      };
      loop();
    },
    /** Called after an enqueue or a callback so work starts without waiting for the next tick. */
    wake() {
      if (!stopped) void runSoon();
    },
    /** Runs one full tick (tests and the admin's "narrate now"). */
    runOnce: runSoon,
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      await runner.current();
      await startupSweep;
      // A store close to the end may finish; the others are stopped and handed back, so the next
      // start (or another instance) takes them over without waiting for their leases to run out.
      const settled = () =>
        Promise.race([Promise.allSettled([...activeStores.keys()]), new Promise((resolve) => setTimeout(resolve, 5_000).unref())]);
      await settled();
      for (const controller of activeStores.values()) controller.abort(new StoreStopped('shutdown', 'this instance is stopping'));
      await settled();
      await dispatcher.release().catch(() => undefined);
    },
  };
}

export type NarrationWorker = ReturnType<typeof createWorker>;
