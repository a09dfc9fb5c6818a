import type { Core } from '@strapi/strapi';
import type { BudgetService, LedgerService, NarratedTarget, Origin } from '../../credits';
import { siteVoices, type SettingsService } from '../../settings';
import type { ProcessTextPostData, SpeechClient } from '../../speech-client';
import type { NarrationEvent } from '../domain/states';
import { planSubmissionFailure, type SubmissionFailurePlan, type SubmittedText } from '../domain/submission';
import type { QueueConfig } from './config';
import type { QueueStateStore } from './queue-state';

export interface SendDeps {
  strapi: Core.Strapi;
  config: QueueConfig;
  settings: SettingsService;
  queueState: QueueStateStore;
  client: () => SpeechClient;
  callbackUrl: () => string;
  ledger: LedgerService;
  /** The monthly budget: a request over it waits, unsent. */
  budget: Pick<BudgetService, 'check'>;
  now: () => Date;
}

/** An article or a part, claimed and ready to be asked for. */
export interface Sendable {
  articleId: string;
  attempts: number;
  submissions: number;
  regenerate: boolean;
  noAudioCheck?: boolean | null;
  record: (event: NarrationEvent) => Promise<unknown>;
  target: NarratedTarget;
  origin: Origin;
  letThroughMonth: string | null;
}

export type SendRequest = Pick<ProcessTextPostData, 'name' | 'voiceId' | 'preprocessType'> & { text: string };

/** One paid request: the budget asked first, the ledger told after, the queue paused on what pauses it. */
export function createSend(deps: SendDeps) {
  const { strapi, config, queueState, now } = deps;
  const log = (message: string) => strapi.log.info(`[speech] ${message}`);

  /** False when no request went out (budget hold, or the queue paused). */
  async function send(narration: Sendable, request: SendRequest, text: SubmittedText & { credits: number }) {
    const { text: body, ...postData } = request;
    const credits = await deps.ledger.chargeFor({ ...narration, cost: text.credits });
    const { target } = narration;
    const budget = await deps.budget.check(
      { ...target, documentId: target.targetDocumentId, locale: target.targetLocale, credits, letThroughMonth: narration.letThroughMonth },
      now()
    );
    if (budget.hold) {
      await narration.record({ type: 'budgetHeld', reason: budget.reason, until: budget.until });
      log(`${narration.articleId} waits for the monthly budget (${credits} credits)`);
      return false;
    }
    const ledgerRequest = {
      ...target,
      origin: narration.origin,
      characters: text.characters,
      factor: request.preprocessType === '2' ? 2 : 1,
      regenerate: narration.regenerate,
      credits,
    };
    try {
      const response = await deps.client().processText({
        text: body,
        postData: { ...postData, articleId: narration.articleId, callbackURL: deps.callbackUrl(), regenerate: narration.regenerate },
      });
      const at = now();
      // Accepted at once: a re-delivery's callback comes right after the 202 and is ignored by a row not yet
      // awaiting one. The ledger follows; should it fail, the charge is missing only from the ledger.
      await narration.record({ type: 'submitAccepted', callbackTimeoutMs: config.callbackTimeoutMs, now: at });
      const accepted = { checksEarlier: Boolean(narration.noAudioCheck) };
      await deps.ledger.narrationAccepted(ledgerRequest, response.creditsRemaining, at, accepted).catch((error) => {
        strapi.log.error(
          `[speech] ${narration.articleId}: the ledger could not record its ${credits} credits: ${(error as Error).message}`
        );
      });
      if (response.creditsRemaining !== undefined) {
        await queueState.update({ creditsRemaining: response.creditsRemaining, creditsSeenAt: at.toISOString() });
        await deps.ledger.noteBalance(response.creditsRemaining);
      }
      log(`submitted ${narration.articleId} (${text.characters} characters, ${credits} credits, regenerate ${narration.regenerate})`);
      return true;
    } catch (error) {
      const plan = planSubmissionFailure(error, {
        attempt: narration.attempts + 1,
        maxAttempts: config.maxAttempts,
        callbackTimeoutMs: config.callbackTimeoutMs,
        now: now(),
        text: { characters: text.characters, isPart: text.isPart },
        voice: { voiceId: request.voiceId, sitesOwn: siteVoices(await deps.settings.get()).has(request.voiceId) },
      });
      await narration.record(plan.event);
      if (plan.event.type === 'submitAlreadyProcessing') await deps.ledger.narrationAlreadyProcessing(ledgerRequest, text.credits, now());
      if (plan.event.type === 'submitRejected' && plan.event.creditsMayBeLost)
        await deps.ledger.narrationRefundFailed(ledgerRequest, text.credits, now());
      if (!plan.pauseQueue) {
        strapi.log.warn(`[speech] ${narration.articleId}: ${(error as Error).message}`);
        return true;
      }
      await pause(plan.pauseQueue);
      return false;
    }
  }

  /** Every instance stops submitting for `creditsPauseMs`, and the balance the service told is kept. */
  async function pause(reason: NonNullable<SubmissionFailurePlan['pauseQueue']>) {
    await deps.ledger.noteBalance(reason.creditsRemaining);
    await queueState.update({
      paused: true,
      pausedUntil: new Date(now().getTime() + config.creditsPauseMs).toISOString(),
      pauseCode: reason.code,
      pauseReason: reason.reason,
      ...(reason.creditsRemaining !== undefined
        ? { creditsRemaining: reason.creditsRemaining, creditsRequired: reason.creditsRequired ?? null, creditsSeenAt: now().toISOString() }
        : {}),
    });
    strapi.log.warn(`[speech] narration queue paused: ${reason.reason}`);
  }

  return send;
}

export type Send = ReturnType<typeof createSend>;
