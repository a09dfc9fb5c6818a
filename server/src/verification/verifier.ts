import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Core } from '@strapi/strapi';
import { joinMp3, mp3FileSource } from '../audio';
import {
  createDispatcherLease,
  localPathOf,
  StoredFileUnreadable,
  type DescribeLive,
  type MediaFileRef,
  type MediaStore,
  type NarrationRow,
  type NarrationRows,
  type StoredPart,
} from '../queue';
import type { LedgerService } from '../credits';
import type { SettingsService } from '../settings';
import { SpeechServiceError, type SpeechClient } from '../speech-client';
import { planFromError, planFromStatus } from '../speech-to-text';
import { segmentsFromSubtitles } from '../subtitles';
import { createBackgroundLoop } from '../utils';
import type { VoicesService } from '../voices';
import type { CheckRows } from './check-rows';
import type { VerificationConfig } from './config';
import {
  afterComparison,
  afterFailure,
  afterSubmitted,
  OPEN_CHECK_STATUSES,
  stillTranscribing,
  type CheckPatch,
  type CheckRow,
  type StepFailure,
} from './domain/check';
import { compareTranscript } from './domain/compare';
import { wasRetaken } from './domain/view';
import { afterSweep, currentSweep, isChecked, PASS_EVERY_MS, sweepSince, type SweepState } from './domain/sweep';
import { audioToCheck, type AudioToCheck } from './domain/view';

/**
 * Checks stored narrations by listening to them: each store of a type that verifies gets a check
 * row per audio (the article's, or each part an edit re-generated); the row's audio goes to the
 * service's speech to text, its job is polled, and the transcript is compared with the text sent.
 *
 * Everything is in the database: the rows, their attempts and leases, and how far each type's stores
 * have been looked at (the plugin store's `verification` key, domain/sweep.ts), so a restart carries on. One instance at
 * a time looks for new stores and works the rows (its own lease, `verifier`); a step that fails
 * (429, 5xx, the network) is tried again later, a bounded number of times. None of it is on the
 * way of a publish, a store or a public route: it runs beside them, on its own timer.
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
  narrations: Pick<NarrationRows, 'storedSince' | 'findById'>;
  client: SpeechClient;
  settings: Pick<SettingsService, 'get'>;
  describeLive: DescribeLive;
  voices: Pick<VoicesService, 'check'>;
  media: Pick<MediaStore, 'readableUrl'>;
  /** A check's transcription the service took: in the ledger, cause `verification`, at what the service said it cost. */
  ledger: Pick<LedgerService, 'transcriptionSubmitted'>;
  /** A check ended in a mismatch or failed: `narration.verification_failed` goes out (webhooks/). */
  verificationFailed: (narrationId: number, articleId: string) => void;
  /**
   * A paid regenerate of the narration, as an editor's (narration/), or of some of its parts: the
   * budget and the ledger apply, its cause is `verification`. Whether it was queued, and why not.
   */
  regenerate: (narration: NarrationRow, partKeys?: string[]) => Promise<{ queued: boolean; reason?: string }>;
  now?: () => Date;
}

/** Stores looked at per pass, and checks worked per pass. */
const BATCH = 20;
/**
 * How often stores are looked for while no check is under way: a store on this instance wakes the
 * verifier at once; one on another instance is found within this.
 */
const IDLE_SWEEP_MS = PASS_EVERY_MS;
const STORE_KEY = 'verification';
/** Ended checks are kept past the usage page's longest period (90 days) and its month, then deleted. */
const ENDED_CHECKS_KEPT_MS = 92 * 24 * 60 * 60_000;
const PRUNE_EVERY_MS = 60 * 60_000;

export function createVerifier(deps: VerifierDeps) {
  const { strapi, config, rows, narrations, client } = deps;
  const now = deps.now ?? (() => new Date());
  const loop = createBackgroundLoop({
    log: strapi.log,
    what: 'the narration checks',
    pass: () => pass(),
    nextDelayMs: () => delayUntilNext(),
  });
  const { owner } = loop;
  const lease = createDispatcherLease(strapi, owner, config.leaseMs, 'verifier');
  const store = () => strapi.store({ type: 'plugin', name: 'speech' });
  let prunedAt = 0;

  /** The language the audio is spoken in: its voice's, else the article's locale; null leaves the service's default. */
  async function languageOf(voiceId: string, locale: string | null): Promise<string | null> {
    const voice = await deps.voices.check(voiceId, locale).catch(() => null);
    return voice?.language ?? locale;
  }

  /** Gives a stored narration a check for each of its audio not checked yet, with the text that was sent for it. */
  async function addChecks(narration: NarrationRow, existing: CheckRow[]) {
    const audio = audioToCheck(narration);
    const current = new Set(audio.map((item) => item.audioKey));
    // A part regenerated after its mismatch keeps its key: its audio is new once stored again.
    const retaken = existing.filter((row) => current.has(row.audioKey) && wasRetaken(row, narration));
    const known = new Set(existing.filter((row) => !retaken.includes(row)).map((row) => row.audioKey));
    // A pass looks at recent stores again: it writes only when a store replaced audio.
    if (existing.some((row) => !current.has(row.audioKey))) await rows.retireOtherThan(narration.id, [...current]);
    await rows.retire(retaken.map((row) => row.id));
    const missing = audio.filter((item) => !known.has(item.audioKey));
    if (missing.length === 0) return;
    const live = await deps.describeLive(narration);
    // Edited since this audio was made: what was sent is no longer known, and new audio is on its way.
    if (!live || live.fingerprint !== narration.narratedFingerprint) return;
    const at = now();
    for (const item of missing) {
      const part = item.part ? live.parts.find((candidate) => candidate.key === item.part!.key) : undefined;
      const text = item.part ? part?.text : live.text;
      if (text === undefined) continue;
      // A passage read in another language's voice is heard in that language.
      const language = await languageOf(part?.voiceId ?? live.voiceId, live.locale);
      await rows.create(
        {
          narrationId: narration.id,
          articleId: narration.articleId,
          audioKey: item.audioKey,
          partKey: item.part?.key ?? null,
          language,
          text,
        },
        at
      );
    }
    strapi.log.info(`[speech] ${narration.articleId}: ${missing.length} verification check(s) queued`);
  }

  /** The types this verifier saw verifying at its previous read of the settings (a type turned on since begins after it). */
  let lastRead: { at: Date; types: string[] } | undefined;
  let latestRead: { at: Date; types: string[] } | undefined;

  async function verifyingTypes(): Promise<string[]> {
    const settings = await deps.settings.get();
    const types = Object.entries(settings.contentTypes)
      .filter(([, type]) => type.verify)
      .map(([uid]) => uid);
    lastRead = latestRead;
    latestRead = { at: now(), types };
    return types;
  }

  async function savedSweep(): Promise<SweepState | null> {
    return ((await store().get({ key: STORE_KEY })) as SweepState | null) ?? null;
  }

  /** Looks at the stores of `types` since the last pass (domain/sweep.ts says which). */
  async function sweep(types: string[]) {
    const at = now();
    const saved = await savedSweep();
    const { state, changed } = currentSweep(saved, types, at, lastRead);
    const since = sweepSince(state);
    if (!since) {
      if (changed) await store().set({ key: STORE_KEY, value: state });
      return;
    }
    const stored = await narrations.storedSince(since, types, BATCH);
    const checked = stored.filter((narration) => isChecked(state, narration));
    const existing = await rows.forNarrations(checked.map((row) => row.id));
    for (const narration of checked) {
      await addChecks(
        narration,
        existing.filter((row) => row.narrationId === narration.id)
      );
    }
    const next = afterSweep(state, stored, stored.length < BATCH, at);
    if (changed || JSON.stringify(next) !== JSON.stringify(saved)) await store().set({ key: STORE_KEY, value: next });
    if (stored.length === BATCH) loop.requestRerun();
  }

  function failureOf(error: unknown): StepFailure {
    if (error instanceof StoredFileUnreadable)
      return { message: `The stored audio could not be read: ${error.message}`, code: 'AUDIO_UNREADABLE', retryable: true };
    if (error instanceof SpeechServiceError) {
      return { message: error.message, code: error.code, retryable: error.retryable, retryAfterMs: error.retryAfterMs };
    }
    return { message: error instanceof Error ? error.message : String(error), code: 'CHECK_FAILED', retryable: true };
  }

  /**
   * What a pass reads of the stored audio, in its own folder: each stored MP3 once, however many of
   * its parts are checked (on S3 it is a download of the whole joined file).
   */
  function passFiles(workDir: string) {
    const read = new Map<number, Promise<string>>();
    return {
      workDir,
      stored(file: MediaFileRef): Promise<string> {
        let local = read.get(file.id);
        if (!local) {
          local = localPathOf(strapi, deps.media, file, { workDir, maxBytes: config.maxAudioBytes, timeoutMs: config.downloadTimeoutMs });
          read.set(file.id, local);
          local.catch(() => read.delete(file.id));
        }
        return local;
      },
    };
  }
  type PassFiles = ReturnType<typeof passFiles>;

  /** The file to send for one check: the stored MP3 itself, or a part's frames cut from it (`cut`: removed after the upload). */
  async function audioFile(narration: NarrationRow, item: AudioToCheck, row: CheckRow, files: PassFiles) {
    const stored = await files.stored(narration.audio!);
    if (!item.part) return { path: stored, cut: false };
    const part = path.join(files.workDir, `part-${row.id}.mp3`);
    await joinMp3([mp3FileSource(stored, item.part as Pick<StoredPart, 'audioOffset' | 'audioLength'>)], part);
    return { path: part, cut: true };
  }

  async function submit(row: CheckRow, files: PassFiles): Promise<CheckPatch | 'superseded'> {
    const narration = await narrations.findById(row.narrationId, { audio: true });
    const item = narration ? audioToCheck(narration).find((candidate) => candidate.audioKey === row.audioKey) : undefined;
    if (!narration || !item) return 'superseded';
    let cut: string | null = null;
    try {
      const audio = await audioFile(narration, item, row, files);
      if (audio.cut) cut = audio.path;
      const { jobId, creditsUsed, creditsRemaining } = await client.submitTranscription({
        file: audio.path,
        filename: `${narration.articleId.replace(/[^a-zA-Z0-9_-]+/g, '-').slice(0, 80)}.mp3`,
        contentType: 'audio/mpeg',
        ...(row.language ? { language: row.language } : {}),
        outputFormat: 'json',
      });
      const at = now();
      strapi.log.info(`[speech] ${row.articleId}: verification ${row.id} sent to speech to text (job ${jobId})`);
      await deps.ledger
        .transcriptionSubmitted({
          jobId,
          origin: { cause: 'verification', causedBy: null },
          title: narration.title,
          at,
          credits: creditsUsed,
          creditsRemaining,
          target: {
            contentType: narration.contentType,
            targetDocumentId: narration.targetDocumentId,
            targetLocale: narration.targetLocale,
          },
        })
        .catch((error) => strapi.log.error(`[speech] verification ${row.id}: the ledger did not record it: ${(error as Error).message}`));
      return afterSubmitted(jobId, at, config.pollMs);
    } catch (error) {
      return afterFailure(row, failureOf(error), now(), config.maxAttempts);
    } finally {
      if (cut) await fs.rm(cut, { force: true });
    }
  }

  async function poll(row: CheckRow): Promise<CheckPatch> {
    const at = now();
    const context = {
      pollMs: config.pollMs,
      consecutiveErrors: 0,
      ageMs: at.getTime() - new Date(row.submittedAt ?? at).getTime(),
      maxWaitMs: config.maxWaitMs,
    };
    const plan = await client.getTranscriptionStatus(row.jobId!).then(
      (job) => planFromStatus(job, context),
      (error) => planFromError(error, context)
    );
    switch (plan.kind) {
      case 'waiting':
        return stillTranscribing(at, plan.delayMs);
      case 'retry':
        // The service pacing our polls is no failure of the check: it waits as asked (maxWaitMs bounds it).
        if (plan.errorCode === 'RATE_LIMIT_EXCEEDED') return stillTranscribing(at, plan.delayMs);
        return afterFailure(
          row,
          { message: plan.error, code: plan.errorCode, retryable: true, retryAfterMs: plan.delayMs },
          at,
          config.maxAttempts
        );
      case 'failed':
        return afterFailure(row, { message: plan.error, code: plan.errorCode, retryable: false }, at, config.maxAttempts);
      case 'completed': {
        const settings = await deps.settings.get();
        const { minWordAccuracy } = settings.verification;
        const comparison = compareTranscript(row.text, segmentsFromSubtitles(plan.result.subtitles), row.language, minWordAccuracy);
        return afterComparison(comparison, minWordAccuracy, at);
      }
    }
  }

  async function work(row: CheckRow, files: PassFiles) {
    if (!(await rows.claim(row.id, owner, config.leaseMs, now()))) return;
    const patch = row.status === 'pending' ? await submit(row, files) : await poll(row);
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
      await regenerateOnce(row);
  }

  /**
   * A mismatch of a type that chose `onMismatch: 'regenerate'`: the article is narrated again, once;
   * for a segmented narration, the parts that mismatched, once the last check of its audio ended
   * (the others are kept, unpaid). Never when the audio checked was itself that regenerate (no
   * loop), nor when the article was edited since (its new version is on its way).
   */
  async function regenerateOnce(row: CheckRow) {
    const settings = await deps.settings.get();
    const narration = await narrations.findById(row.narrationId);
    if (!narration || settings.contentTypes[narration.contentType]?.verification?.onMismatch !== 'regenerate') return;
    let failing = [row];
    if (row.partKey !== null) {
      const checks = await rows.forNarrations([narration.id]);
      if (checks.some((check) => OPEN_CHECK_STATUSES.includes(check.status))) return;
      failing = checks.filter((check) => check.status === 'mismatch' && check.partKey !== null && !check.regenerated);
      if (failing.length === 0) return;
    }
    const why =
      narration.cause === 'verification'
        ? 'this audio is already the regenerate a mismatch asked for'
        : narration.status !== 'completed' || narration.narratedFingerprint !== narration.fingerprint
          ? 'a newer version is on its way'
          : null;
    if (why) {
      strapi.log.info(`[speech] ${row.articleId}: not regenerated after the mismatch: ${why}`);
      return;
    }
    const partKeys = row.partKey !== null ? failing.map((check) => check.partKey!) : undefined;
    const outcome = await deps.regenerate(narration, partKeys);
    for (const check of failing) await rows.markRegenerated(check.id);
    const what = partKeys ? `${partKeys.length} part(s) regenerated` : 'regenerated';
    strapi.log.info(
      `[speech] ${row.articleId}: ${outcome.queued ? `${what} once after the mismatch` : `not regenerated after the mismatch: ${outcome.reason}`}`
    );
  }

  async function pass() {
    // A site where no type verifies and no check is left costs two reads, and takes no lease.
    const types = await verifyingTypes();
    if (types.length === 0 && Object.keys((await savedSweep())?.types ?? {}).length === 0 && (await rows.nextDueAt()) === null) return;
    if (!(await lease.acquire(now()))) return;
    if (now().getTime() - prunedAt >= PRUNE_EVERY_MS) {
      prunedAt = now().getTime();
      await rows.pruneEnded(new Date(prunedAt - ENDED_CHECKS_KEPT_MS));
    }
    await sweep(types);
    const due = await rows.due(now(), BATCH);
    if (due.length === 0) return;
    const files = passFiles(await fs.mkdtemp(path.join(os.tmpdir(), 'speech-verify-')));
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
