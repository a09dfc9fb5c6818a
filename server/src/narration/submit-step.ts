import type { Core } from '@strapi/strapi';
import type { PluginConfig } from '../settings/config-schema';
import type { SettingsService } from '../settings/service';
import type { SpeechClient } from '../speech-client';
import type { DispatcherLease } from './dispatcher-lease';
import { planSubmissionFailure } from './domain/submission';
import type { JobsRepository, NarrationRow } from './jobs.repository';
import { describeLive, type LiveVersionDeps } from './live-version';

/**
 * The worker's submission step: under the dispatcher lease (one instance counts and submits at a
 * time), claims queued rows while fewer than `maxInFlight` await a callback, submits each one's
 * live version to the service, and records the outcome: accepted, rejected, retried later, or the
 * whole queue paused (credits, key).
 */

export interface SubmitStepDeps extends LiveVersionDeps {
  strapi: Core.Strapi;
  config: PluginConfig;
  repository: JobsRepository;
  settings: SettingsService;
  client: () => SpeechClient;
  callbackUrl: () => string;
  dispatcher: Pick<DispatcherLease, 'acquire'>;
  /** This worker, as the rows' `leaseOwner` names it. */
  owner: string;
  now: () => Date;
}

export function createSubmitStep(deps: SubmitStepDeps) {
  const { strapi, config, repository, settings, owner, now } = deps;
  const log = (message: string) => strapi.log.info(`[speech] ${message}`);

  async function submitOne(row: NarrationRow, at: Date) {
    const claimed = await repository.apply(row, { type: 'claimed', owner, leaseMs: config.leaseMs, now: at });
    if (!claimed.applied) return;
    let job = claimed.row;
    const version = await describeLive(deps, job);
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
        text: { characters: version.characters },
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

  return {
    /** Submits the queued rows that are due, as many as `maxInFlight` leaves room for; stops when the queue pauses. */
    async submitQueued(at: Date) {
      // An idle queue costs one read per tick: the lease (a write) is only taken when there is work.
      const due = await repository.claimable(at, config.maxInFlight);
      if (due.length === 0) return;
      if (!(await deps.dispatcher.acquire(at))) return;
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
    },
  };
}
