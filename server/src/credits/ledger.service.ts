import type { Core } from '@strapi/strapi';
import type { LedgerCause, LedgerKind, LedgerOutcome } from '../../../shared/contracts/usage';
import type { SettingsService } from '../settings';
import { dayOf, monthBounds, monthOf } from './domain/calendar';
import type { Origin } from './domain/cause';
import { chargedOnAcceptance, outcomeOfCallback } from './domain/charges';
import { PREVIEW_SOURCE, TRANSCRIPTION_SOURCE } from './domain/totals';
import type { LedgerRepository, NewLedgerEntry } from './ledger.repository';

/**
 * The plugin's own account of what the speech service charged. The service tells its balance only
 * in passing, so those readings are kept beside the ledger and a drift between the two shows.
 */

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
  /** 0 for a free re-delivery (chargeFor). */
  credits: number;
}

export interface MonthSpent {
  total: number;
  byType: Record<string, number>;
}

interface BalanceReading {
  creditsRemaining: number;
  spent: number;
  at: string;
}

interface BalanceReadings {
  first: BalanceReading;
  latest: BalanceReading;
}

/** Previews and transcriptions narrate no article. */
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

type LedgerDeps = { strapi: Core.Strapi; repository: LedgerRepository; settings: SettingsService };

/** What every entry needs: its day in the budget's time zone, and the balance reading kept beside the ledger. */
function ledgerBasics({ strapi, repository, settings }: LedgerDeps) {
  const store = () => strapi.store({ type: 'plugin', name: 'speech' });
  const timeZone = async () => (await settings.get()).budget.timeZone;

  /** Called after the ledger recorded what the same answer charged. */
  async function noteBalance(creditsRemaining: number | undefined | null) {
    if (creditsRemaining === undefined || creditsRemaining === null) return;
    const reading: BalanceReading = { creditsRemaining, spent: await repository.spentEver(), at: new Date().toISOString() };
    const readings = (await store().get({ key: 'ledgerBalance' })) as BalanceReadings | null;
    await store().set({ key: 'ledgerBalance', value: { first: readings?.first ?? reading, latest: reading } satisfies BalanceReadings });
  }

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

  const narrationFields = ({ origin: _origin, ...fields }: NarrationRequest) => fields;

  return { store, timeZone, noteBalance, entryOf, narrationFields };
}
type LedgerBasics = ReturnType<typeof ledgerBasics>;

/** A narration's request, from its charge to its callback. */
function narrationEntries({ repository }: LedgerDeps, basics: LedgerBasics) {
  const { entryOf, narrationFields } = basics;
  const entries = {
    /** Free when asked again without `regenerate` (a re-delivery); `submissions` covers rows older than the ledger. */
    async chargeFor(request: { articleId: string; regenerate: boolean; cost: number; submissions: number }): Promise<number> {
      const askedBefore = request.regenerate || request.submissions > 0 || (await repository.hasEntryFor(request.articleId));
      return chargedOnAcceptance({ regenerate: request.regenerate, cost: request.cost, askedBefore });
    },

    /**
     * A still-pending entry of the same articleId is settled: generated before a paid request (its
     * result's write was lost to a crash), refunded before a free one (the callback timed out, so the
     * service could not deliver: spec 3.1). `checksEarlier`: a check settled by its own callback.
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

    /** 409: with no entry awaiting a callback, a request whose answer was lost started it, and paid. */
    async narrationAlreadyProcessing(request: NarrationRequest, cost: number, at: Date) {
      if ((await repository.pendingFor(request.articleId)).length > 0) return;
      await entries.narrationAccepted({ ...request, credits: cost }, undefined, at);
    },

    async narrationRefundFailed(request: NarrationRequest, cost: number, at: Date) {
      await repository.record(await entryOf({ ...narrationFields(request), credits: cost }, request.origin, 'refund-failed', at));
    },

    /** A check of a callback without files also settles the request it checked. */
    async callbackReceived(articleId: string, withFiles: boolean, at: Date) {
      for (const entry of await repository.pendingFor(articleId))
        await repository.settle(entry, outcomeOfCallback(entry.credits, withFiles), at);
    },
  };
  return entries;
}

/** Previews and transcriptions, charged as the service answered. */
function otherEntries({ repository }: LedgerDeps, basics: LedgerBasics) {
  const { noteBalance, entryOf } = basics;
  return {
    /** Speech generation charges on delivery. */
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

    /** The contract prices narration only: 0 unless the service's answer says what it cost. */
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
  };
}

/** The month's spending, its end, and the balance the service last told. */
function ledgerReads({ repository }: LedgerDeps, basics: LedgerBasics) {
  const { store, timeZone } = basics;
  return {
    /** Pending requests included. */
    async monthSpent(at: Date): Promise<MonthSpent> {
      const zone = await timeZone();
      const month = monthOf(at, zone);
      const bySource = await repository.spentBySource(`${month}-01`, `${month}-31`);
      const byType = Object.fromEntries(
        Object.entries(bySource).filter(([source]) => source !== PREVIEW_SOURCE && source !== TRANSCRIPTION_SOURCE)
      );
      return { total: Object.values(bySource).reduce((sum, credits) => sum + credits, 0), byType };
    },

    async monthEnd(at: Date): Promise<Date> {
      const zone = await timeZone();
      return monthBounds(monthOf(at, zone), zone).end;
    },

    noteBalance: basics.noteBalance,

    entriesOfNarration: (narrationId: number) => repository.ofNarration(narrationId),

    spentEver: () => repository.spentEver(),

    spentBy: (cause: LedgerCause, causedBy: readonly string[]) => repository.spentBy(cause, causedBy),

    /** Drift: what the balance lost between the first and latest readings, less what the ledger charged. */
    async balance(): Promise<{ creditsRemaining: number | null; seenAt: string | null; drift: number | null }> {
      const readings = (await store().get({ key: 'ledgerBalance' })) as BalanceReadings | null;
      if (!readings) return { creditsRemaining: null, seenAt: null, drift: null };
      const { first, latest } = readings;
      const drift = first.at === latest.at ? null : first.creditsRemaining - latest.creditsRemaining - (latest.spent - first.spent);
      return { creditsRemaining: latest.creditsRemaining, seenAt: latest.at, drift };
    },
  };
}

export function createLedgerService(deps: LedgerDeps) {
  const basics = ledgerBasics(deps);
  return { ...narrationEntries(deps, basics), ...otherEntries(deps, basics), ...ledgerReads(deps, basics) };
}

export type LedgerService = ReturnType<typeof createLedgerService>;
