import type { Core } from '@strapi/strapi';
import { type BudgetService, AUTOMATIC, type Origin, type LedgerService, type NarratedTarget } from '../../credits';
import { siteVoices, type SettingsService } from '../../settings';
import type { QueueConfig } from './config';
import type { QueueStateStore } from './queue-state';
import { isPreprocessType } from '../../../../shared/contracts/settings';
import type { ProcessTextPostData, SpeechClient } from '../../speech-client';
import type { DispatcherLease } from '../../utils';
import type { NarrationPartRow } from '../domain/narration-row';
import { fairOrder } from '../domain/part-plan';
import { BUDGET_REACHED, type NarrationEvent } from '../domain/states';
import { planSubmissionFailure, type SubmittedText } from '../domain/submission';
import type { NarrationRows, NarrationRow } from '../rows/narration-rows';
import type { DescribeLive } from '../domain/live-version';
import type { PartRows } from '../rows/part-rows';
import type { PlanStep } from './plan-step';

export interface SubmitStepDeps {
  describeLive: DescribeLive;
  strapi: Core.Strapi;
  config: QueueConfig;
  repository: NarrationRows;
  parts: PartRows;
  planStep: PlanStep;
  settings: SettingsService;
  queueState: QueueStateStore;
  client: () => SpeechClient;
  callbackUrl: () => string;
  dispatcher: Pick<DispatcherLease, 'acquire'>;
  ledger: LedgerService;
  /** The monthly budget: a request over it waits, unsent. */
  budget: Pick<BudgetService, 'check'>;
  owner: string;
  now: () => Date;
}

interface Sendable {
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

/** Rows without an origin are the plugin's own. */
function originOf(row: Pick<NarrationRow, 'cause' | 'causedBy'>): Origin {
  return row.cause ? { cause: row.cause, causedBy: row.causedBy ?? null } : AUTOMATIC;
}

/** Queued articles read in one pass: all those narrated in parts among them are planned in it. */
const ARTICLES_PER_PASS = 20;

export function createSubmitStep(deps: SubmitStepDeps) {
  const { strapi, config, repository, parts, settings, queueState, owner, now } = deps;
  const log = (message: string) => strapi.log.info(`[speech] ${message}`);

  /** False when no request went out (budget hold, or the queue paused). */
  async function send(
    narration: Sendable,
    request: Pick<ProcessTextPostData, 'name' | 'voiceId' | 'preprocessType'> & { text: string },
    text: SubmittedText & { credits: number }
  ) {
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
        voice: { voiceId: request.voiceId, sitesOwn: siteVoices(await settings.get()).has(request.voiceId) },
      });
      await narration.record(plan.event);
      if (plan.event.type === 'submitAlreadyProcessing') await deps.ledger.narrationAlreadyProcessing(ledgerRequest, text.credits, now());
      if (plan.event.type === 'submitRejected' && plan.event.creditsMayBeLost)
        await deps.ledger.narrationRefundFailed(ledgerRequest, text.credits, now());
      if (!plan.pauseQueue) {
        strapi.log.warn(`[speech] ${narration.articleId}: ${(error as Error).message}`);
        return true;
      }
      await deps.ledger.noteBalance(plan.pauseQueue.creditsRemaining);
      await queueState.update({
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
      return false;
    }
  }

  /** True when a request went out; `mayAsk` false: only planned, and one narrated whole goes back to the queue. */
  async function submitArticle(row: NarrationRow, at: Date, mayAsk = true): Promise<boolean> {
    const claimed = await repository.apply(row, { type: 'claimed', owner, leaseMs: config.leaseMs, now: at });
    if (!claimed.applied) return false;
    let narration = claimed.row;
    const version = await deps.describeLive(narration);
    if (!version) {
      await repository.apply(narration, {
        type: 'submitRejected',
        reason: 'The content is no longer published or no longer narrated.',
        code: 'NOT_PUBLISHED',
      });
      return false;
    }
    if (version.fingerprint !== narration.fingerprint || version.characters !== narration.characters) {
      await repository.setFigures(narration.id, {
        fingerprint: version.fingerprint,
        characters: version.characters,
        credits: version.credits,
        voiceId: version.voiceId,
        preprocessType: version.preprocessType,
        title: version.title.slice(0, 255),
      });
      narration = { ...narration, fingerprint: version.fingerprint };
    }
    if (version.text.trim() === '') {
      await repository.apply(narration, { type: 'submitRejected', reason: 'There is no text to narrate.', code: 'EMPTY_TEXT' });
      return false;
    }
    if (version.mode === 'segmented') {
      await deps.planStep.plan(narration, {
        title: version.title,
        voiceId: version.voiceId,
        preprocessType: version.preprocessType,
        parts: version.parts,
      });
      return false;
    }
    if (!mayAsk) {
      await repository.apply(narration, { type: 'claimReturned' });
      return false;
    }
    // Narrated whole from now on: parts a segmented version left on their way are of no use.
    if (narration.narrationMode === 'segmented') {
      await parts.removeForNarration(narration.id);
      await repository.setFigures(narration.id, { narrationMode: 'whole' });
    }
    const record = (event: NarrationEvent) => repository.apply(narration, event);
    const request = { text: version.text, name: version.title, voiceId: version.voiceId, preprocessType: version.preprocessType };
    const target: NarratedTarget = {
      articleId: narration.articleId,
      kind: 'narration',
      narrationId: narration.id,
      contentType: narration.contentType,
      targetDocumentId: narration.targetDocumentId,
      targetLocale: narration.targetLocale,
      title: version.title.slice(0, 255),
    };
    const sendable = { ...narration, record, target, origin: originOf(narration), letThroughMonth: narration.letThroughMonth ?? null };
    return send(sendable, request, { characters: version.characters, credits: version.credits });
  }

  async function submitPart(row: NarrationPartRow, at: Date): Promise<boolean> {
    const claimed = await parts.apply(row, { type: 'claimed', owner, leaseMs: config.leaseMs, now: at });
    if (!claimed.applied) return false;
    const part = claimed.row;
    const article = await repository.findById(part.narrationId);
    const record = async (event: NarrationEvent) => {
      const outcome = await parts.apply(part, event);
      // A part that failed for good fails its article.
      if (outcome.applied && outcome.row.status === 'failed') await deps.planStep.settle(part.narrationId);
      // Its article says why it is not getting on.
      if (outcome.applied && event.type === 'budgetHeld') await repository.noteWaiting(part.narrationId, event.reason, BUDGET_REACHED);
    };
    const request = {
      text: part.text,
      name: part.title ?? part.articleId,
      voiceId: part.voiceId ?? '',
      preprocessType: isPreprocessType(part.preprocessType) ? part.preprocessType : '0',
    };
    const target: NarratedTarget = {
      articleId: part.articleId,
      kind: 'part',
      narrationId: part.narrationId,
      contentType: article?.contentType ?? '',
      targetDocumentId: article?.targetDocumentId ?? '',
      targetLocale: article?.targetLocale ?? null,
      title: article?.title ?? part.title,
    };
    const sendable = {
      ...part,
      record,
      target,
      origin: article ? originOf(article) : AUTOMATIC,
      letThroughMonth: article?.letThroughMonth ?? null,
    };
    return send(sendable, request, { characters: part.characters, credits: part.credits, isPart: true });
  }

  return {
    async submitQueued(at: Date) {
      // An idle queue costs one read per table per tick: the lease (a write) is only taken when there is work.
      const { contentTypes } = await settings.get();
      // More than a pass can send is read only where some type is narrated in parts (below).
      const anyInParts = Object.values(contentTypes).some((type) => type.narrationMode === 'segmented');
      const [articles, queuedParts] = [
        await repository.claimable(at, anyInParts ? Math.max(config.maxInFlight, ARTICLES_PER_PASS) : config.maxInFlight),
        await parts.claimable(at, config.maxInFlight),
      ];
      if (articles.length === 0 && queuedParts.length === 0) return;
      // Renewed from the clock before each claim: a pass slower than `leaseMs` (a loaded machine)
      // would otherwise go on after another instance took the lease, and both would count the same
      // budget and in-flight slots as free. Lost, the pass stops.
      const holdsLease = () => deps.dispatcher.acquire(now());
      if (!(await holdsLease())) return;
      const queue = await queueState.read();
      if (queue.paused) {
        if (queue.pausedUntil && new Date(queue.pausedUntil) > at) return;
        // The pause ran out: let one submission probe the balance (or the key) again.
        await queueState.update({ paused: false, pausedUntil: null });
      }
      let free = config.maxInFlight - (await repository.countInFlight()) - (await parts.countInFlight());
      // Articles narrated in parts are cut up first, slots free or not (it asks nothing), so their parts
      // take their turn in the fair order beside all that waits.
      const inParts = new Set(articles.filter((row) => contentTypes[row.contentType]?.narrationMode === 'segmented'));
      for (const row of inParts) {
        if (!(await holdsLease())) return;
        if (!(await submitArticle(row, at, free > 0))) continue;
        // Narrated whole after all (its settings changed meanwhile): it was sent.
        free -= 1;
        if ((await queueState.read()).paused) return;
      }
      const due = inParts.size > 0 ? await parts.claimable(at, config.maxInFlight) : queuedParts;
      const whole = articles.filter((row) => !inParts.has(row));
      for (const work of fairOrder(whole, due)) {
        if (free <= 0 || !(await holdsLease())) return;
        const sent = work.kind === 'article' ? await submitArticle(work.row, at) : await submitPart(work.row, at);
        if (sent) free -= 1;
        if ((await queueState.read()).paused) return;
      }
    },
  };
}
