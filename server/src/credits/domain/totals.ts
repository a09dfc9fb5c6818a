/** What one ledger entry adds to its day's and its article's month's totals, so readers never scan entries. */
import type { LedgerKind, LedgerOutcome } from '../../../../shared/contracts/usage';

export const PREVIEW_SOURCE = 'preview';
export const TRANSCRIPTION_SOURCE = 'transcription';
/** A unique key holds no NULL that conflicts. */
export const NO_LOCALE = '';

export interface EntryFigures {
  kind: LedgerKind;
  contentType: string | null;
  targetLocale: string | null;
  credits: number;
  outcome: LedgerOutcome;
}

export interface DayKey {
  day: string;
  source: string;
  targetLocale: string;
  kind: LedgerKind;
}

/** All may be negative but `entries`. */
export interface DayDelta {
  charged: number;
  refunded: number;
  pending: number;
  entries: number;
  refunds: number;
  redeliveries: number;
}

export const ZERO_DELTA: DayDelta = { charged: 0, refunded: 0, pending: 0, entries: 0, refunds: 0, redeliveries: 0 };

export function sourceOf(entry: Pick<EntryFigures, 'kind' | 'contentType'>): string {
  if (entry.kind === 'transcription') return TRANSCRIPTION_SOURCE;
  if (entry.kind === 'voice-preview' || entry.kind === 'paragraph-preview') return PREVIEW_SOURCE;
  return entry.contentType ?? PREVIEW_SOURCE;
}

export function dayKeyOf(entry: EntryFigures, day: string): DayKey {
  return { day, source: sourceOf(entry), targetLocale: entry.targetLocale ?? NO_LOCALE, kind: entry.kind };
}

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

export function deltaOnRecord(entry: Pick<EntryFigures, 'credits' | 'outcome'>): DayDelta {
  return sum({ ...ZERO_DELTA, charged: entry.credits, entries: 1 }, outcomeDelta(entry.outcome, entry.credits));
}

export function deltaOnSettle(credits: number, from: LedgerOutcome, to: LedgerOutcome): DayDelta {
  return sum(outcomeDelta(to, credits), outcomeDelta(from, credits), -1);
}

export function spentOf(delta: Pick<DayDelta, 'charged' | 'refunded'>): number {
  return delta.charged - delta.refunded;
}
