import type { Core } from '@strapi/strapi';
import { NARRATION_PART_UID, NARRATION_UID } from '../content-types';
import { BUDGET_REACHED, type BudgetWaiting, type LedgerKind } from '../../../shared/contracts/usage';
import { StatusError } from '../http';
import type { SettingsService } from '../settings';
import { budgetReason, budgetVerdict, type BudgetVerdict } from './domain/budget';
import { monthOf } from './domain/calendar';
import type { Origin } from './domain/cause';
import type { PreviewAccount } from './domain/preview';
import type { LedgerService, NarratedTarget } from './ledger.service';

/**
 * The monthly credit budget. The worker asks under the dispatcher lease, so two instances never
 * count the same credits as free; a held narration waits until the month ends or the budget rises.
 */

export const BUDGET_WEBHOOK_EVENTS = { SPEECH_BUDGET_REACHED: 'speech.budget.reached' } as const;

export interface HeldRequest {
  articleId: string;
  contentType: string | null;
  documentId: string | null;
  locale: string | null;
  title: string | null;
  credits: number;
}

type BudgetDeps = { strapi: Core.Strapi; settings: SettingsService; ledger: LedgerService; wake: () => void };

/** Once per month and limit: the key is written before the event goes out. */
async function announce(strapi: Core.Strapi, verdict: Extract<BudgetVerdict, { kind: 'over' }>, request: HeldRequest, month: string) {
  const store = strapi.store({ type: 'plugin', name: 'speech' });
  const key = `${month}:${verdict.limit}:${verdict.limit === 'type' ? request.contentType : ''}`;
  const announced = ((await store.get({ key: 'budgetAnnounced' })) as string[] | null) ?? [];
  if (announced.includes(key)) return;
  await store.set({ key: 'budgetAnnounced', value: [...announced.filter((old) => old.startsWith(month)), key] });
  await strapi.eventHub.emit(BUDGET_WEBHOOK_EVENTS.SPEECH_BUDGET_REACHED, {
    month,
    limit: verdict.limit,
    contentType: verdict.limit === 'type' ? request.contentType : null,
    monthlyCredits: verdict.monthlyCredits,
    spent: verdict.spent,
    waiting: {
      articleId: request.articleId,
      uid: request.contentType,
      documentId: request.documentId,
      locale: request.locale,
      title: request.title,
      credits: request.credits,
    },
  });
}

/** The narrations and parts the budget holds: let through, released, counted. */
function heldRows(deps: BudgetDeps) {
  const { strapi, settings } = deps;
  const tables = () => [NARRATION_UID, NARRATION_PART_UID].map((uid) => strapi.db.query(uid));

  return {
    /** Held rows are checked again when the worker reaches them, and held again if still over. */
    async releaseHeld(): Promise<number> {
      let released = 0;
      for (const query of tables()) {
        const { count } = await query.updateMany({
          where: { status: 'queued', lastErrorCode: BUDGET_REACHED },
          data: { nextAttemptAt: null, lastError: null, lastErrorCode: null },
        });
        released += count;
        // An article whose parts the budget held says so while its other parts are generated.
        await query.updateMany({
          where: { status: 'awaiting_parts', lastErrorCode: BUDGET_REACHED },
          data: { lastError: null, lastErrorCode: null },
        });
      }
      if (released > 0) deps.wake();
      return released;
    },

    /** False when it does not wait for the budget. */
    async letThrough(narrationId: number, at: Date): Promise<boolean> {
      const { budget } = await settings.get();
      const [narrations, parts] = tables();
      await narrations.update({ where: { id: narrationId }, data: { letThroughMonth: monthOf(at, budget.timeZone) } });
      const released =
        (
          await narrations.updateMany({
            where: { id: narrationId, status: { $in: ['queued', 'awaiting_parts'] }, lastErrorCode: BUDGET_REACHED },
            data: { nextAttemptAt: null, lastError: null, lastErrorCode: null },
          })
        ).count +
        (
          await parts.updateMany({
            where: { narrationId, status: 'queued', lastErrorCode: BUDGET_REACHED },
            data: { nextAttemptAt: null, lastError: null, lastErrorCode: null },
          })
        ).count;
      if (released > 0) deps.wake();
      return released > 0;
    },

    /** An article counted once, whole or by its held parts. */
    async waiting(): Promise<BudgetWaiting> {
      const [narrations, parts] = tables();
      const wholes = (await narrations.findMany({
        where: { status: 'queued', lastErrorCode: BUDGET_REACHED },
        select: ['id', 'credits'],
      })) as Array<{ id: number; credits: number | null }>;
      const heldParts = (await parts.findMany({
        where: { status: 'queued', lastErrorCode: BUDGET_REACHED },
        select: ['narrationId', 'credits'],
      })) as Array<{ narrationId: number; credits: number | null }>;
      const articles = new Set([...wholes.map((row) => `n${row.id}`), ...heldParts.map((row) => `n${row.narrationId}`)]);
      const credits = [...wholes, ...heldParts].reduce((sum, row) => sum + (row.credits ?? 0), 0);
      return { articles: articles.size, credits };
    },
  };
}

export function createBudgetService(deps: BudgetDeps) {
  const { strapi, settings, ledger } = deps;
  const webhookStore = () =>
    strapi.get('webhookStore') as { addAllowedEvent(key: string, value: string): void; removeAllowedEvent?(key: string): void };

  /**
   * The month's verdict on these credits of a type (within, for a site with no limit on them), and
   * the month in the budget's zone; `letThroughMonth`: an editor let it through that month.
   */
  async function verdictFor(request: { credits: number; contentType: string | null; letThroughMonth?: string | null }, at: Date) {
    // Past the settings' cache: a budget another instance just saved applies at once.
    const { budget } = await settings.fresh();
    const month = monthOf(at, budget.timeZone);
    const limited =
      budget.monthlyCredits !== null || (request.contentType !== null && budget.contentTypes[request.contentType] !== undefined);
    if (!limited || request.credits <= 0) return { verdict: { kind: 'within' } as BudgetVerdict, month };
    const verdict = budgetVerdict(budget, await ledger.monthSpent(at), {
      credits: request.credits,
      contentType: request.contentType,
      letThrough: request.letThroughMonth === month,
    });
    return { verdict, month };
  }

  const service = {
    registerEvents() {
      for (const [key, value] of Object.entries(BUDGET_WEBHOOK_EVENTS)) webhookStore().addAllowedEvent(key, value);
    },

    unregisterEvents() {
      for (const key of Object.keys(BUDGET_WEBHOOK_EVENTS)) webhookStore().removeAllowedEvent?.(key);
    },

    async check(
      request: HeldRequest & { letThroughMonth?: string | null },
      at: Date
    ): Promise<{ hold: false } | { hold: true; reason: string; until: Date }> {
      const { verdict, month } = await verdictFor(request, at);
      if (verdict.kind === 'within') return { hold: false };
      await announce(strapi, verdict, request, month).catch((error) => {
        strapi.log.error(`[speech] could not announce the budget reached: ${(error as Error).message}`);
      });
      return { hold: true, reason: budgetReason(verdict), until: await ledger.monthEnd(at) };
    },

    /** Whether the month has room for these credits of a type, beside what it spent; nothing is held or announced. */
    async fits(contentType: string, credits: number, at: Date): Promise<boolean> {
      return (await verdictFor({ credits, contentType }, at)).verdict.kind === 'within';
    },

    /** The site's month budget left (null: none). */
    async monthRemaining(at: Date): Promise<number | null> {
      const [{ budget }, spent] = await Promise.all([settings.get(), ledger.monthSpent(at)]);
      return budget.monthlyCredits === null ? null : Math.max(0, budget.monthlyCredits - spent.total);
    },

    previewAccount: (charge: PreviewCharge): PreviewAccount => createPreviewAccount({ budget: service, ledger }, charge),

    ...heldRows(deps),
  };
  return service;
}

export type BudgetService = ReturnType<typeof createBudgetService>;

/** A preview over budget is refused with 402 before anything is sent; the ledger records what the service charged. */
export interface PreviewCharge {
  kind: Extract<LedgerKind, 'voice-preview' | 'paragraph-preview'>;
  origin: Origin;
  voiceId: string;
  target?: Omit<NarratedTarget, 'kind' | 'narrationId'> | null;
}

export function createPreviewAccount(
  services: { budget: Pick<BudgetService, 'check'>; ledger: Pick<LedgerService, 'previewGenerated'> },
  { kind, origin, voiceId, target = null }: PreviewCharge
): PreviewAccount {
  return {
    async beforeGenerating(characters) {
      const check = await services.budget.check(
        {
          articleId: target?.articleId ?? `preview:${voiceId}`,
          // Counted against the site's budget only: a type's own limit is for its narrations.
          contentType: null,
          documentId: target?.targetDocumentId ?? null,
          locale: target?.targetLocale ?? null,
          title: target?.title ?? null,
          credits: characters,
        },
        new Date()
      );
      if (check.hold) throw new StatusError(402, 'BudgetReachedError', check.reason, { code: BUDGET_REACHED });
    },

    async generated(speech) {
      await services.ledger.previewGenerated({
        kind,
        origin,
        voiceId,
        characters: speech.characters,
        credits: speech.creditsUsed ?? speech.characters,
        target,
        creditsRemaining: speech.creditsRemaining,
        at: new Date(),
      });
    },
  };
}
