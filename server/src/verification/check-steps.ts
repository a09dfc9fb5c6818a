import { promises as fs } from 'node:fs';
import type { Core } from '@strapi/strapi';
import type { LedgerService } from '../credits';
import { StoredFileUnreadable, type NarrationRow, type Queue } from '../queue';
import type { SettingsService } from '../settings';
import { SpeechServiceError, type SpeechClient } from '../speech-client';
import { planFromError, planFromStatus } from '../speech-to-text';
import { segmentsFromSubtitles } from '../subtitles';
import {
  afterComparison,
  afterFailure,
  afterSubmitted,
  stillTranscribing,
  type CheckPatch,
  type CheckRow,
  type StepFailure,
} from './domain/check';
import { compareTranscript } from './domain/compare';
import { audioToCheck } from './domain/view';
import { audioFile, type PassFiles } from './pass-files';

export interface CheckStepsDeps {
  strapi: Core.Strapi;
  config: { pollMs: number; maxAttempts: number; maxWaitMs: number };
  narrations: Pick<Queue['reads'], 'findById'>;
  client: SpeechClient;
  settings: Pick<SettingsService, 'get'>;
  /** A check's transcription the service took: in the ledger, cause `verification`, at what the service said it cost. */
  ledger: Pick<LedgerService, 'transcriptionSubmitted'>;
  now: () => Date;
}

/** A check's two steps at the service: its audio sent to speech to text, and its job polled until the transcript is compared. */
export function createCheckSteps(deps: CheckStepsDeps) {
  const { strapi, config, narrations, client, now } = deps;

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
      await noteInLedger(deps, row, narration, { jobId, creditsUsed, creditsRemaining, at });
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

  return { submit, poll };
}

function failureOf(error: unknown): StepFailure {
  if (error instanceof StoredFileUnreadable)
    return { message: `The stored audio could not be read: ${error.message}`, code: 'AUDIO_UNREADABLE', retryable: true };
  if (error instanceof SpeechServiceError) {
    return { message: error.message, code: error.code, retryable: error.retryable, retryAfterMs: error.retryAfterMs };
  }
  return { message: error instanceof Error ? error.message : String(error), code: 'CHECK_FAILED', retryable: true };
}

/** The check's transcription in the ledger, caused by `verification`; a ledger that fails does not fail the check. */
async function noteInLedger(
  { strapi, ledger }: CheckStepsDeps,
  row: CheckRow,
  narration: NarrationRow,
  { jobId, creditsUsed, creditsRemaining, at }: { jobId: string; creditsUsed?: number; creditsRemaining?: number; at: Date }
) {
  await ledger
    .transcriptionSubmitted({
      jobId,
      origin: { cause: 'verification', causedBy: null },
      title: narration.title,
      at,
      credits: creditsUsed,
      creditsRemaining,
      target: { contentType: narration.contentType, targetDocumentId: narration.targetDocumentId, targetLocale: narration.targetLocale },
    })
    .catch((error) => strapi.log.error(`[speech] verification ${row.id}: the ledger did not record it: ${(error as Error).message}`));
}
