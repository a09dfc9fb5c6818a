import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Core } from '@strapi/strapi';
import type { DescribeLive, Queue } from '../queue';
import type { LedgerService } from '../credits';
import type { SettingsService } from '../settings';
import type { SpeechClient } from '../speech-client';
import { createBackgroundLoop, createDispatcherLease } from '../utils';
import { LEASE_UID } from '../content-types';
import type { VoicesService } from '../voices';
import { createCheckSteps } from './check-steps';
import type { CheckRows } from './check-rows';
import type { VerificationConfig } from './config';
import { OPEN_CHECK_STATUSES, type CheckRow } from './domain/check';
import { PASS_EVERY_MS } from './domain/sweep';
import { createCheckFinder } from './new-checks';
import { passFiles, type PassFiles } from './pass-files';
import { createRegeneratePolicy, type RegeneratePolicyDeps } from './regenerate-policy';

/**
 * Checks stored narrations by listening to them: each stored audio gets a check row
 * (new-checks.ts), its audio goes to the service's speech to text and its job is polled
 * (check-steps.ts), and a mismatch may regenerate it (regenerate-policy.ts). All of it is in the
 * database, so a restart carries on; one instance at a time works the checks (its own lease,
 * `verifier`), beside publishes and stores, never on their way.
 */

export interface VerifierConfig extends VerificationConfig {
  pollMs: number;
  leaseMs: number;
  worker: boolean;
  downloadTimeoutMs: number;
  maxAudioBytes: number;
}

export interface VerifierDeps {
  strapi: Core.Strapi;
  config: VerifierConfig;
  rows: CheckRows;
  narrations: Pick<Queue['reads'], 'storedSince' | 'findById'>;
  client: SpeechClient;
  settings: Pick<SettingsService, 'get'>;
  describeLive: DescribeLive;
  voices: Pick<VoicesService, 'check'>;
  /** The stored audio, read back to be checked. */
  files: Pick<Queue, 'localCopy'>;
  /** A check's transcription the service took: in the ledger, cause `verification`, at what the service said it cost. */
  ledger: Pick<LedgerService, 'transcriptionSubmitted'>;
  /** A check ended in a mismatch or failed: `narration.verification_failed` goes out (webhooks/). */
  verificationFailed: (narrationId: number, articleId: string) => void;
  /** A mismatch's regenerate goes through the editor's (narration/), caused by `verification`. */
  editor: RegeneratePolicyDeps['editor'];
  now?: () => Date;
}

/** Checks worked per pass. */
const BATCH = 20;
/**
 * How often stores are looked for while no check is under way: a store on this instance wakes the
 * verifier at once; one on another instance is found within this.
 */
const IDLE_SWEEP_MS = PASS_EVERY_MS;
/** Ended checks are kept past the usage page's longest period (90 days) and its month, then deleted. */
const ENDED_CHECKS_KEPT_MS = 92 * 24 * 60 * 60_000;
const PRUNE_EVERY_MS = 60 * 60_000;

export function createVerifier(deps: VerifierDeps) {
  const { strapi, config, rows } = deps;
  const now = deps.now ?? (() => new Date());
  const loop = createBackgroundLoop({
    log: strapi.log,
    what: 'the narration checks',
    pass: () => pass(),
    nextDelayMs: () => delayUntilNext(),
  });
  const { owner } = loop;
  const lease = createDispatcherLease(strapi, LEASE_UID, owner, config.leaseMs, 'verifier');
  let prunedAt = 0;
  const finder = createCheckFinder({ ...deps, now, requestRerun: () => loop.requestRerun() });
  const steps = createCheckSteps({ ...deps, now });
  const policy = createRegeneratePolicy(deps);

  async function work(row: CheckRow, files: PassFiles) {
    if (!(await rows.claim(row.id, owner, config.leaseMs, now()))) return;
    const patch = row.status === 'pending' ? await steps.submit(row, files) : await steps.poll(row);
    if (patch === 'superseded') {
      await rows.remove(row.id);
      return;
    }
    if (!(await rows.finish(row.id, owner, patch))) return;
    if (patch.status === 'verified' || patch.status === 'mismatch') {
      const heard =
        typeof patch.wordAccuracy === 'number'
          ? `${Math.round(patch.wordAccuracy * 1000) / 10} % of words heard`
          : 'too far from the text to align';
      strapi.log.info(`[speech] ${row.articleId}: verification ${row.id} ${patch.status} (${heard})`);
    } else if (patch.status === 'failed') {
      strapi.log.warn(`[speech] ${row.articleId}: verification ${row.id} failed: ${patch.lastError}`);
    }
    if (patch.status === 'mismatch' || patch.status === 'failed') deps.verificationFailed(row.narrationId, row.articleId);
    // A part's check that ends may be its narration's last: the parts that mismatched are then regenerated together.
    if (patch.status === 'mismatch' || (row.partKey !== null && patch.status !== undefined && !OPEN_CHECK_STATUSES.includes(patch.status)))
      await policy.regenerateOnce(row);
  }

  async function pass() {
    // A site where no type verifies and no check is left costs two reads, and takes no lease.
    const types = await finder.verifyingTypes();
    if (types.length === 0 && Object.keys((await finder.savedSweep())?.types ?? {}).length === 0 && (await rows.nextDueAt()) === null)
      return;
    if (!(await lease.acquire(now()))) return;
    if (now().getTime() - prunedAt >= PRUNE_EVERY_MS) {
      prunedAt = now().getTime();
      await rows.pruneEnded(new Date(prunedAt - ENDED_CHECKS_KEPT_MS));
    }
    await finder.sweep(types);
    const due = await rows.due(now(), BATCH);
    if (due.length === 0) return;
    const files = passFiles(await fs.mkdtemp(path.join(os.tmpdir(), 'speech-verify-')), { files: deps.files, ...config });
    try {
      for (const row of due) {
        if (loop.isStopped()) return;
        await work(row, files).catch((error) => strapi.log.error(`[speech] verification ${row.id}: ${(error as Error).message}`));
      }
    } finally {
      await fs.rm(files.workDir, { recursive: true, force: true });
    }
  }

  /** Sleeps until the next check is due, at most one poll interval; with none under way, IDLE_SWEEP_MS. */
  async function delayUntilNext(): Promise<number> {
    const next = await rows.nextDueAt().catch(() => undefined);
    if (next === null) return IDLE_SWEEP_MS;
    const wait = next ? next.getTime() - now().getTime() : config.pollMs;
    return Math.min(config.pollMs, Math.max(250, wait));
  }

  return {
    start() {
      if (config.worker) loop.start(0);
    },
    /** A store just completed: look at it now rather than at the next poll. */
    wake: () => loop.wakeIn(0),
    async stop() {
      await loop.stop();
      await rows.releaseLeases(owner).catch(() => undefined);
      await lease.release().catch(() => undefined);
    },
  };
}

export type Verifier = ReturnType<typeof createVerifier>;
