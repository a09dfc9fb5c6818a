import type { Core } from '@strapi/strapi';
import type { QueueConfig } from './config';
import type { MediaConfig, MediaStore } from '../media/media';
import type { SettingsService } from '../../settings';
import type { SpeechClient, SpeechClientConfig } from '../../speech-client';
import { createCallbackReceiver } from '../callback/callback-receiver';
import type { NarrationRows } from '../rows/narration-rows';
import type { PartRows } from '../rows/part-rows';
import { createPlanStep } from './plan-step';
import { recoverLeases, timeOutCallbacks } from './recovery';
import type { ResultUrls } from '../domain/states';
import { createJoinedMedia } from '../media/joined-media';
import { createPartResults } from '../media/part-results';
import { createBackgroundLoop, createDispatcherLease } from '../../utils';

import { createStoreStep } from './store-step';
import { createSubmitStep, type SubmitStepDeps } from './submit-step';
import type { DescribeLive } from '../domain/live-version';
import { LEASE_UID } from '../../content-types';

/**
 * The queue worker. Each tick: recover expired leases, time out lost callbacks, store accepted
 * results, then submit queued articles while fewer than `maxInFlight` await a callback.
 * Every row it touches is claimed by a conditional update first, so several Strapi instances can
 * run workers against one database without submitting a narration twice.
 */

export interface WorkerDeps {
  strapi: Core.Strapi;
  config: QueueConfig & MediaConfig & Pick<SpeechClientConfig, 'apiKey'>;
  repository: NarrationRows;
  parts: PartRows;
  settings: SettingsService;
  queueState: SubmitStepDeps['queueState'];
  describeLive: DescribeLive;
  client: () => SpeechClient;
  media: MediaStore;
  callbackUrl: () => string;
  ledger: SubmitStepDeps['ledger'];
  budget: SubmitStepDeps['budget'];
  now?: () => Date;
}

export function createWorker(deps: WorkerDeps) {
  const { strapi, config, repository, parts } = deps;
  const now = deps.now ?? (() => new Date());
  const loop = createBackgroundLoop({
    log: strapi.log,
    what: 'the narration queue',
    pass: () => tick(),
    nextDelayMs: () => config.pollIntervalMs,
  });
  const { owner, isStopped } = loop;
  const dispatcher = createDispatcherLease(strapi, LEASE_UID, owner, config.leaseMs);

  /** Segmented articles whose parts are all in (or one failed): normally moved on by the part's own write, this catches a crash in between. */
  async function settleArticlesAwaitingParts() {
    for (const row of await repository.awaitingParts()) await planStep.settle(row.id);
  }

  /** Called after an enqueue, a callback or a finished store, so work starts without waiting for the next tick. */
  const wake = () => loop.wakeAfterThisTurn();

  const partResults = createPartResults(config);
  const joined = createJoinedMedia({
    strapi,
    config,
    media: deps.media,
    parts,
    partResults,
    withFiles: (id) => repository.findById(id, true),
  });
  const stores = createStoreStep({ ...deps, joined, owner, now, isStopped, wake });
  const planStep = createPlanStep({ strapi, repository, parts, owner, now });
  const submissions = createSubmitStep({ ...deps, owner, now, dispatcher, planStep });
  const fetchPart = (result: ResultUrls) => {
    if (!isStopped()) partResults.fetch(result);
  };
  const callbacks = createCallbackReceiver({ ...deps, worker: { wake, fetchPart, settle: (narrationId) => planStep.settle(narrationId) } });
  let startupSweep: Promise<void> = Promise.resolve();

  async function tick() {
    // Idle: one indexed lookup, however large the archive of completed narrations grows.
    if (stores.activeCount() === 0 && !(await repository.hasActiveRows())) return;
    const at = now();
    await recoverLeases(deps, at);
    await timeOutCallbacks({ ...deps, planStep }, at);
    await settleArticlesAwaitingParts();
    await stores.storeResults(at);
    await submissions.submitQueued(at);
  }

  return {
    owner,
    start() {
      if (!isStopped()) return;
      // Started first: the sweep goes on only while the loop runs.
      loop.start(config.pollIntervalMs);
      startupSweep = stores.removeReplacedFilesLeft().catch((error) => {
        strapi.log.warn(`[speech] could not remove the files of replaced narrations: ${(error as Error).message}`);
      });
    },
    wake,
    receiveCallback: callbacks.receive,
    runOnce: loop.runOnce,
    async stop() {
      await loop.stop();
      await callbacks.settled();
      await startupSweep;
      await stores.stop();
      await partResults.close();
      await dispatcher.release().catch(() => undefined);
    },
  };
}

export type NarrationWorker = ReturnType<typeof createWorker>;
