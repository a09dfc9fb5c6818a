import type { Core } from '@strapi/strapi';
import type { SpeechClient } from '../speech-client';
import type { TranscriptionRows, TranscriptionRow } from './transcription-rows';
import type { TranscriptionSettings } from './settings';
import { planFromError, planFromStatus, type PollPlan } from './status';
import { createBackgroundLoop } from '../utils';

/**
 * Polls every active transcription at its own `nextPollAt`. All state is in the database and each
 * poll claims its row (conditional update + lease), so restarts and other instances carry on safely.
 */

export interface PollerDeps {
  strapi: Core.Strapi;
  repository: TranscriptionRows;
  client: () => SpeechClient;
  settings: TranscriptionSettings;
  owner: string;
  now?: () => Date;
}

const BATCH = 20;
const CONCURRENCY = 4;

export function createPoller(deps: PollerDeps) {
  const { strapi, repository, settings, owner } = deps;
  const now = deps.now ?? (() => new Date());
  const loop = createBackgroundLoop({
    log: strapi.log,
    what: 'the transcription poller',
    pass: () => tick(),
    nextDelayMs: () => delayUntilNext(),
    owner,
  });
  /** After a 429 every job of the account would get one too: no polls until then. */
  let rateLimitedUntil = 0;

  const log = (message: string) => strapi.log.info(`[speech] transcription ${message}`);

  async function pollOne(row: TranscriptionRow, at: Date) {
    if (!(await repository.claimForPoll(row.id, owner, settings.pollLeaseMs, at))) return;
    const context = {
      pollMs: settings.pollMs,
      consecutiveErrors: row.pollErrors ?? 0,
      ageMs: at.getTime() - new Date(row.submittedAt ?? row.createdAt).getTime(),
      maxWaitMs: settings.maxWaitMs,
    };
    const plan = await planOf(deps.client, row, context);
    const done = now();
    const written = await repository.finishPoll(row.id, owner, patchFor(row, plan, done));
    if (!written) return;
    if (plan.kind === 'retry' && plan.errorCode === 'RATE_LIMIT_EXCEEDED')
      rateLimitedUntil = Math.max(rateLimitedUntil, done.getTime() + plan.delayMs);
    if (plan.kind === 'completed') log(`${row.id} (job ${row.jobId}) completed`);
    else if (plan.kind === 'failed') strapi.log.warn(`[speech] transcription ${row.id} (job ${row.jobId}) failed: ${plan.error}`);
    else if (plan.kind === 'retry')
      strapi.log.warn(`[speech] transcription ${row.id}: polling again in ${Math.round(plan.delayMs / 1000)} s: ${plan.error}`);
  }

  async function tick() {
    const at = now();
    await failInterruptedUploads(deps, at);
    if (at.getTime() < rateLimitedUntil) return;
    const due = await repository.duePolls(at, BATCH);
    const queue = [...due];
    const workers = Array.from({ length: Math.min(CONCURRENCY, queue.length) }, async () => {
      for (let row = queue.shift(); row; row = queue.shift()) {
        if (loop.isStopping() || now().getTime() < rateLimitedUntil) return;
        await pollOne(row, at).catch((error) =>
          strapi.log.error(`[speech] polling transcription ${row!.id} failed: ${(error as Error).message}`)
        );
      }
    });
    await Promise.all(workers);
    if (due.length === BATCH && now().getTime() >= rateLimitedUntil) loop.requestRerun();
  }

  /** At most one poll interval: rows of other instances appear unannounced. */
  async function delayUntilNext(): Promise<number> {
    const floor = Math.min(250, settings.pollMs);
    try {
      const at = now();
      const next = await repository.nextDueAt(at);
      if (!next) return settings.pollMs;
      const due = Math.max(next.getTime(), rateLimitedUntil);
      return Math.min(Math.max(settings.pollMs, rateLimitedUntil - at.getTime()), Math.max(floor, due - at.getTime()));
    } catch {
      return settings.pollMs;
    }
  }

  return {
    owner,
    start: () => loop.start(0),
    wake: () => loop.wakeIn(Math.min(settings.pollMs, 50)),
    runOnce: loop.runOnce,
    async stop() {
      await loop.stop();
      await repository.releaseLeases(owner).catch(() => undefined);
    },
  };
}

/** The row's columns after a poll, by what the poll found. */
function patchFor(row: TranscriptionRow, plan: PollPlan, at: Date): Record<string, unknown> {
  const later = (ms: number) => new Date(at.getTime() + ms);
  switch (plan.kind) {
    case 'waiting':
      return {
        status: plan.status,
        serviceStatus: plan.serviceStatus,
        nextPollAt: later(plan.delayMs),
        pollErrors: 0,
        lastPollError: null,
      };
    case 'completed':
      return {
        status: 'completed',
        serviceStatus: plan.serviceStatus,
        result: plan.result,
        nextPollAt: null,
        completedAt: at,
        pollErrors: 0,
        lastPollError: null,
        error: null,
        errorCode: null,
      };
    case 'failed':
      return {
        status: 'failed',
        ...(plan.serviceStatus !== null ? { serviceStatus: plan.serviceStatus } : {}),
        error: plan.error,
        errorCode: plan.errorCode,
        nextPollAt: null,
        completedAt: at,
      };
    case 'retry':
      return { nextPollAt: later(plan.delayMs), pollErrors: (row.pollErrors ?? 0) + 1, lastPollError: plan.error.slice(0, 2000) };
  }
}

/** An upload a stop or a crash cut short cannot be resumed: it is failed, and says so. */
async function failInterruptedUploads({ strapi, repository }: Pick<PollerDeps, 'strapi' | 'repository'>, at: Date) {
  for (const row of await repository.interruptedUploads(at)) {
    const failed = await repository.markFailed(row.id, ['uploading'], {
      error: 'The upload to the speech service was interrupted (the server stopped or restarted). Submit the file again.',
      errorCode: 'UPLOAD_INTERRUPTED',
    });
    if (failed) strapi.log.warn(`[speech] transcription ${row.id}: upload interrupted`);
  }
}

/** What the service says of the job, as the next step for its row. */
async function planOf(
  client: PollerDeps['client'],
  row: TranscriptionRow,
  context: Parameters<typeof planFromStatus>[1]
): Promise<PollPlan> {
  let plan: PollPlan;
  if (!row.jobId) {
    plan = {
      kind: 'failed',
      serviceStatus: null,
      error: 'The transcription has no job id at the speech service.',
      errorCode: 'NO_JOB_ID',
    };
  } else {
    try {
      plan = planFromStatus(await client().getTranscriptionStatus(row.jobId), context);
    } catch (error) {
      plan = planFromError(error, context);
    }
  }
  return plan;
}
