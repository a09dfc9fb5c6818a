/**
 * What one ledger entry adds to the ledger's totals: its day's (by content type, locale and kind)
 * and its article's month. The totals are written in the same transaction as the entry, so the
 * usage view and the budget read a few rows instead of scanning the entries. Pure.
 */
import type { LedgerKind, LedgerOutcome } from '../../../../shared/contracts/usage';

/** The day totals' `source` of entries that narrate no content type. */
export const PREVIEW_SOURCE = 'preview';
export const TRANSCRIPTION_SOURCE = 'transcription';
/** The day totals' `targetLocale` of entries without a locale (a unique key holds no NULL that conflicts). */
export const NO_LOCALE = '';

export interface EntryFigures {
  kind: LedgerKind;
  contentType: string | null;
  targetLocale: string | null;
  credits: number;
  outcome: LedgerOutcome;
}

/** A day total's key. */
export interface DayKey {
  day: string;
  source: string;
  targetLocale: string;
  kind: LedgerKind;
}

/** Amounts added to a day total (all may be negative but `entries`). */
export interface DayDelta {
  charged: number;
  refunded: number;
  pending: number;
  entries: number;
  refunds: number;
  redeliveries: number;
}

export const ZERO_DELTA: DayDelta = { charged: 0, refunded: 0, pending: 0, entries: 0, refunds: 0, redeliveries: 0 };

/** Where an entry's credits are counted: its content type, or the previews or transcriptions. */
export function sourceOf(entry: Pick<EntryFigures, 'kind' | 'contentType'>): string {
  if (entry.kind === 'transcription') return TRANSCRIPTION_SOURCE;
  if (entry.kind === 'voice-preview' || entry.kind === 'paragraph-preview') return PREVIEW_SOURCE;
  return entry.contentType ?? PREVIEW_SOURCE;
}

export function dayKeyOf(entry: EntryFigures, day: string): DayKey {
  return { day, source: sourceOf(entry), targetLocale: entry.targetLocale ?? NO_LOCALE, kind: entry.kind };
}

/** How an outcome counts, once the entry has it. */
function outcomeDelta(outcome: LedgerOutcome, credits: number): DayDelta {
  switch (outcome) {
    case 'pending':
      return { ...ZERO_DELTA, pending: credits };
    case 'refunded':
      return { ...ZERO_DELTA, refunded: credits, refunds: 1 };
    case 'redelivered':
      return { ...ZERO_DELTA, redeliveries: 1 };
    default:
      return ZERO_DELTA;
  }
}

function sum(a: DayDelta, b: DayDelta, sign = 1): DayDelta {
  return {
    charged: a.charged + sign * b.charged,
    refunded: a.refunded + sign * b.refunded,
    pending: a.pending + sign * b.pending,
    entries: a.entries + sign * b.entries,
    refunds: a.refunds + sign * b.refunds,
    redeliveries: a.redeliveries + sign * b.redeliveries,
  };
}

/** A new entry: its charge, and how its outcome (pending, or already known) counts. */
export function deltaOnRecord(entry: Pick<EntryFigures, 'credits' | 'outcome'>): DayDelta {
  return sum({ ...ZERO_DELTA, charged: entry.credits, entries: 1 }, outcomeDelta(entry.outcome, entry.credits));
}

/** An entry settled: its old outcome no longer counts, its new one does. */
export function deltaOnSettle(credits: number, from: LedgerOutcome, to: LedgerOutcome): DayDelta {
  return sum(outcomeDelta(to, credits), outcomeDelta(from, credits), -1);
}

/** What an entry leaves spent: charged, less refunded. */
export function spentOf(delta: Pick<DayDelta, 'charged' | 'refunded'>): number {
  return delta.charged - delta.refunded;
}
