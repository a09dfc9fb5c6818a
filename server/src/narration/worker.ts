import { randomUUID } from 'node:crypto';
import type { Core } from '@strapi/strapi';
import type { PluginConfig } from '../config/schema';
import type { SettingsService } from '../services/settings';
import { backoffDelay, type SpeechClient } from '../speech-client';
import type { ContentReader } from './content';
import type { JobsRepository, NarrationRow } from './jobs.repository';
import { DownloadRefusedError, type MediaStore } from './media';
import { createSerialRunner } from '../utils/serial-runner';
import { createDispatcherLease } from './dispatcher-lease';
import { planSubmissionFailure } from './submission';

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
  content: ContentReader;
  client: () => SpeechClient;
  media: MediaStore;
  callbackUrl: () => string;
  now?: () => Date;
}

export function createWorker(deps: WorkerDeps) {
  const { strapi, config, repository, settings, content, media } = deps;
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
  const activeStores = new Set<Promise<void>>();
  const MAX_PARALLEL_STORES = 2;

  async function storeOne(row: NarrationRow) {
    const fresh = (await repository.findById(row.id, true)) as NarrationRow;
    try {
      const stored = await media.store(fresh);
      await repository.linkMedia(row.id, { audio: stored.audio.id, subtitles: stored.subtitles.id, subtitlesVtt: stored.subtitlesVtt.id });
      const outcome = await repository.apply(fresh, { type: 'stored', now: now() });
      if (!outcome.applied) {
        // Cancelled or deleted while downloading: nothing links to the new files.
        await media.remove([stored.audio, stored.subtitles, stored.subtitlesVtt]);
        return;
      }
      // Replace, then delete: the old files are removed only once the new ones are linked.
      await media.remove([fresh.audio, fresh.subtitles, fresh.subtitlesVtt]);
      log(`stored narration of ${row.articleId}`);
    } catch (error) {
      const refused = error instanceof DownloadRefusedError;
      const reason = refused
        ? `The narration could not be downloaded: ${(error as Error).message}`
        : `The narration could not be stored: ${(error as Error).message}`;
      const code = refused ? (error as DownloadRefusedError).code : 'STORE_FAILED';
      strapi.log.warn(`[speech] ${row.articleId}: ${reason}`);
      if (refused && (error as DownloadRefusedError).retryable) {
        const retryAt = new Date(now().getTime() + backoffDelay((fresh.storeAttempts ?? 0) + 1));
        await repository.apply(fresh, { type: 'storeDeferred', retryAt, reason, code, maxAttempts: config.maxAttempts });
      } else {
        await repository.apply(fresh, { type: 'storeFailed', reason, code });
      }
    }
  }

  async function storeResults(at: Date) {
    const free = MAX_PARALLEL_STORES - activeStores.size;
    if (free <= 0) return;
    for (const row of await repository.readyToStore(at, free)) {
      if (!(await repository.claimForStoring(row, owner, config.leaseMs, at))) continue;
      const task = storeOne(row)
        .catch((error) => {
          strapi.log.error(`[speech] storing ${row.articleId} failed: ${(error as Error).message}`);
        })
        .finally(() => {
          activeStores.delete(task);
          if (!stopped) void runSoon();
        });
      activeStores.add(task);
    }
  }

  async function submitOne(row: NarrationRow, at: Date) {
    const claimed = await repository.apply(row, { type: 'claimed', owner, leaseMs: config.leaseMs, now: at });
    if (!claimed.applied) return;
    let job = claimed.row;
    const current = await settings.get();
    const narration = current.contentTypes[job.contentType];
    const entry = narration ? await content.loadLive(job.contentType, job.targetDocumentId, job.targetLocale) : null;
    if (!narration || !entry) {
      await repository.apply(job, { type: 'submitRejected', reason: 'The content is no longer published or no longer narrated.', code: 'NOT_PUBLISHED' });
      return;
    }
    const version = content.describe(job.contentType, entry, narration, current, await settings.voiceOverride(job.articleId));
    if (version.fingerprint !== job.fingerprint || version.characters !== job.characters) {
      await repository.setFigures(job.id, { fingerprint: version.fingerprint, characters: version.characters, credits: version.credits, voiceId: version.voiceId, preprocessType: version.preprocessType, title: version.title.slice(0, 255) });
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
      const plan = planSubmissionFailure(error, { attempt: job.attempts + 1, maxAttempts: config.maxAttempts, callbackTimeoutMs: config.callbackTimeoutMs, now: now() });
      await repository.apply(job, plan.job);
      if (plan.pauseQueue) {
        await settings.updateQueueState({
          paused: true,
          pausedUntil: new Date(now().getTime() + config.creditsPauseMs).toISOString(),
          pauseCode: plan.pauseQueue.code,
          pauseReason: plan.pauseQueue.reason,
          ...(plan.pauseQueue.creditsRemaining !== undefined
            ? { creditsRemaining: plan.pauseQueue.creditsRemaining, creditsRequired: plan.pauseQueue.creditsRequired ?? null, creditsSeenAt: now().toISOString() }
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
    const at = now();
    await recoverLeases(at);
    await timeOutCallbacks(at);
    await storeResults(at);
    await submitQueued(at);
  }

  const runner = createSerialRunner(tick, {
    onError: (error) => strapi.log.error(`[speech] worker tick failed: ${error.message}`),
    isStopped: () => stopped,
  });
  const runSoon = runner.runSoon;

  return {
    owner,
    start() {
      if (!stopped) return;
      stopped = false;
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
      // A download may hang for its whole timeout; its lease lets the next start take it over.
      await Promise.race([Promise.allSettled([...activeStores]), new Promise((resolve) => setTimeout(resolve, 5_000).unref())]);
      await dispatcher.release().catch(() => undefined);
    },
  };
}

export type NarrationWorker = ReturnType<typeof createWorker>;
