import type { Core } from '@strapi/strapi';
import type { LedgerKind, LedgerOutcome } from '../../../shared/contracts/usage';
import type { SettingsService } from '../settings';
import { dayOf, monthBounds, monthOf } from './domain/calendar';
import type { Origin } from './domain/cause';
import { chargedOnAcceptance, outcomeOfCallback } from './domain/charges';
import { PREVIEW_SOURCE, TRANSCRIPTION_SOURCE } from './domain/totals';
import type { LedgerRepository, NewLedgerEntry } from './ledger.repository';

/**
 * The plugin's own account of what the speech service charged: an entry for every
 * request the service accepted that could charge, with what it narrated, who caused it, the credits
 * the contract says it took (credits/domain/charges.ts), and, once its callback comes, how it
 * ended. The service tells its balance only in passing (`Service-Credits-Remaining`, the 402
 * details): those readings are kept beside the ledger, so a drift between the two shows.
 */

/** What the ledger needs of the narrated article (or part) a request was for. */
export interface NarratedTarget {
  articleId: string;
  kind: Extract<LedgerKind, 'narration' | 'part'>;
  narrationId: number | null;
  contentType: string;
  targetDocumentId: string;
  targetLocale: string | null;
  title: string | null;
}

export interface NarrationRequest extends NarratedTarget {
  origin: Origin;
  characters: number;
  /** 1 verbatim, 2 with AI preprocessing (spec 2.2). */
  factor: number;
  regenerate: boolean;
  /** Its credits by the contract: the full cost, or 0 for a re-delivery (chargeFor). */
  credits: number;
}

export interface MonthSpent {
  total: number;
  byType: Record<string, number>;
}

/** A reading of the service's balance, with what the ledger had spent at that moment. */
interface BalanceReading {
  creditsRemaining: number;
  spent: number;
  at: string;
}

/** The first reading and the latest: the drift is measured between them. */
interface BalanceReadings {
  first: BalanceReading;
  latest: BalanceReading;
}

/** The fields of an entry that narrates no article (previews of a voice, transcriptions): none, and nothing charged. */
const UNTARGETED = {
  contentType: null,
  targetDocumentId: null,
  targetLocale: null,
  title: null,
  narrationId: null,
  characters: 0,
  factor: 1,
  regenerate: false,
  credits: 0,
};

export function createLedgerService(deps: { strapi: Core.Strapi; repository: LedgerRepository; settings: SettingsService }) {
  const { strapi, repository, settings } = deps;
  const store = () => strapi.store({ type: 'plugin', name: 'speech' });
  const timeZone = async () => (await settings.get()).budget.timeZone;

  /** Keeps a balance the service gave (after the ledger recorded what the same answer charged). */
  async function noteBalance(creditsRemaining: number | undefined | null) {
    if (creditsRemaining === undefined || creditsRemaining === null) return;
    const reading: BalanceReading = { creditsRemaining, spent: await repository.spentEver(), at: new Date().toISOString() };
    const readings = (await store().get({ key: 'ledgerBalance' })) as BalanceReadings | null;
    await store().set({ key: 'ledgerBalance', value: { first: readings?.first ?? reading, latest: reading } satisfies BalanceReadings });
  }

  /** An entry of the ledger: what was asked, by whom, when (on the budget's calendar), and how it stands. */
  async function entryOf(
    fields: Omit<NewLedgerEntry, 'cause' | 'causedBy' | 'outcome' | 'acceptedAt' | 'day' | 'creditsRemaining'>,
    origin: Origin,
    outcome: LedgerOutcome,
    at: Date,
    creditsRemaining: number | null = null
  ): Promise<NewLedgerEntry> {
    return {
      ...fields,
      cause: origin.cause,
      causedBy: origin.causedBy,
      outcome,
      acceptedAt: at,
      day: dayOf(at, await timeZone()),
      creditsRemaining,
    };
  }

  /** The ledger's fields of a narration request (its origin aside). */
  const narrationFields = ({ origin: _origin, ...fields }: NarrationRequest) => fields;

  const service = {
    /**
     * What a narration request will charge if accepted: its cost unless it asks again, without
     * `regenerate`, for an articleId the service has seen (a free re-delivery). `submissions`: the
     * row's count of accepted requests, for sites whose rows predate the ledger.
     */
    async chargeFor(request: { articleId: string; regenerate: boolean; cost: number; submissions: number }): Promise<number> {
      // With regenerate, asked before or not, it is paid: the ledger is not read.
      const askedBefore = request.regenerate || request.submissions > 0 || (await repository.hasEntryFor(request.articleId));
      return chargedOnAcceptance({ regenerate: request.regenerate, cost: request.cost, askedBefore });
    },

    /**
     * The service accepted a narration request (202). An entry of the same articleId still awaiting
     * its callback is finished (the service would have answered 409 otherwise). Asked again
     * without `regenerate` after the callback timed out, it never reached the site: the service
     * could not deliver and refunded it (spec 3.1, "generation or delivery fails"). Before a paid
     * request, its result came but the ledger's write of it was lost to a crash
     * (narrations.service.ts): it was generated. `checksEarlier`: the request asks whether a
     * callback without files was the service's own (queue/domain/states/callback.ts); the
     * entry it asks about is settled with it, by its answer (callbackReceived).
     * Written right after the narration's acceptance (submit-step.ts), the balance noted after it (noteBalance).
     */
    async narrationAccepted(
      request: NarrationRequest,
      creditsRemaining: number | undefined,
      at: Date,
      { checksEarlier = false }: { checksEarlier?: boolean } = {}
    ) {
      if (!checksEarlier) {
        const outcome = request.credits === 0 ? 'refunded' : 'generated';
        for (const older of await repository.pendingFor(request.articleId)) await repository.settle(older, outcome, at);
      }
      await repository.record(await entryOf(narrationFields(request), request.origin, 'pending', at, creditsRemaining ?? null));
    },

    /**
     * 409 ALREADY_PROCESSING: a generation of this articleId is under way. With no entry awaiting a
     * callback, it was started by a request whose answer was lost, and paid: the ledger records it.
     */
    async narrationAlreadyProcessing(request: NarrationRequest, cost: number, at: Date) {
      if ((await repository.pendingFor(request.articleId)).length > 0) return;
      await service.narrationAccepted({ ...request, credits: cost }, undefined, at);
    },

    /** 422 REFUND_FAILED: the generation failed and the service kept the credits. */
    async narrationRefundFailed(request: NarrationRequest, cost: number, at: Date) {
      await repository.record(await entryOf({ ...narrationFields(request), credits: cost }, request.origin, 'refund-failed', at));
    },

    /**
     * A verified callback: the requests awaiting it are generated, re-delivered or refunded. One,
     * but for a check of a callback without files: its answer settles the request it checked too.
     */
    async callbackReceived(articleId: string, withFiles: boolean, at: Date) {
      for (const entry of await repository.pendingFor(articleId))
        await repository.settle(entry, outcomeOfCallback(entry.credits, withFiles), at);
    },

    /** A voice or paragraph preview the service answered (speech generation charges on delivery). */
    async previewGenerated(preview: {
      kind: Extract<LedgerKind, 'voice-preview' | 'paragraph-preview'>;
      origin: Origin;
      voiceId: string;
      characters: number;
      credits: number;
      target?: Omit<NarratedTarget, 'kind' | 'narrationId'> | null;
      creditsRemaining?: number;
      at: Date;
    }) {
      const { target } = preview;
      const fields = {
        ...UNTARGETED,
        ...(target
          ? {
              contentType: target.contentType,
              targetDocumentId: target.targetDocumentId,
              targetLocale: target.targetLocale,
              title: target.title,
            }
          : {}),
        articleId: target?.articleId ?? `${PREVIEW_SOURCE}:${preview.voiceId}`,
        kind: preview.kind,
        characters: preview.characters,
        credits: preview.credits,
      };
      await repository.record(await entryOf(fields, preview.origin, 'generated', preview.at, preview.creditsRemaining ?? null));
      await noteBalance(preview.creditsRemaining);
    },

    /**
     * A transcription the service took, the admin's or a verification's check: a request of the
     * site's, at what the service's answer said it cost (the contract prices narration only: 0 when
     * it says nothing). A check names the narration it listened to.
     */
    async transcriptionSubmitted(job: {
      jobId: string;
      origin: Origin;
      title: string | null;
      at: Date;
      credits?: number;
      creditsRemaining?: number;
      target?: Omit<NarratedTarget, 'kind' | 'narrationId' | 'articleId' | 'title'> | null;
    }) {
      const fields = {
        ...UNTARGETED,
        ...(job.target ?? {}),
        articleId: `${TRANSCRIPTION_SOURCE}:${job.jobId}`,
        kind: 'transcription' as const,
        title: job.title,
        credits: job.credits ?? 0,
      };
      await repository.record(await entryOf(fields, job.origin, 'generated', job.at, job.creditsRemaining ?? null));
      await noteBalance(job.creditsRemaining);
    },

    /** What the calendar month of `at` has spent (pending requests included), in total and by content type. */
    async monthSpent(at: Date): Promise<MonthSpent> {
      const zone = await timeZone();
      const month = monthOf(at, zone);
      const bySource = await repository.spentBySource(`${month}-01`, `${month}-31`);
      const byType = Object.fromEntries(
        Object.entries(bySource).filter(([source]) => source !== PREVIEW_SOURCE && source !== TRANSCRIPTION_SOURCE)
      );
      return { total: Object.values(bySource).reduce((sum, credits) => sum + credits, 0), byType };
    },

    /** The instant the calendar month of `at` ends, in the budget's zone. */
    async monthEnd(at: Date): Promise<Date> {
      const zone = await timeZone();
      return monthBounds(monthOf(at, zone), zone).end;
    },

    noteBalance,

    /**
     * The balance as last read, and its drift: what it lost between the first reading and the
     * latest, less what the ledger charged in between (0 when the two agree; null before two readings).
     */
    async balance(): Promise<{ creditsRemaining: number | null; seenAt: string | null; drift: number | null }> {
      const readings = (await store().get({ key: 'ledgerBalance' })) as BalanceReadings | null;
      if (!readings) return { creditsRemaining: null, seenAt: null, drift: null };
      const { first, latest } = readings;
      const drift = first.at === latest.at ? null : first.creditsRemaining - latest.creditsRemaining - (latest.spent - first.spent);
      return { creditsRemaining: latest.creditsRemaining, seenAt: latest.at, drift };
    },
  };
  return service;
}

export type LedgerService = ReturnType<typeof createLedgerService>;
