/** The usage view's figures from the ledger's daily totals. */
import { NO_LOCALE_KEY } from '../../../../shared/contracts/common';
import type { MonthToDate, UsageDay } from '../../../../shared/contracts/usage';
import { NO_LOCALE, spentOf, type DayDelta, type DayKey } from './totals';

type DayRow = DayKey & DayDelta;

const add = (map: Record<string, number>, key: string, credits: number) => {
  if (credits !== 0) map[key] = (map[key] ?? 0) + credits;
};

/** Zeros included; the rows may hold other days. */
export function usageDays(days: readonly string[], rows: readonly DayRow[]): UsageDay[] {
  const byDay = new Map<string, UsageDay>(
    days.map((day) => [day, { day, credits: 0, byContentType: {}, byLocale: {}, refunds: 0, refundedCredits: 0, redeliveries: 0 }])
  );
  for (const row of rows) {
    const day = byDay.get(row.day);
    if (!day) continue;
    const spent = spentOf(row);
    day.credits += spent;
    add(day.byContentType, row.source, spent);
    add(day.byLocale, row.targetLocale === NO_LOCALE ? NO_LOCALE_KEY : row.targetLocale, spent);
    day.refunds += row.refunds;
    day.refundedCredits += row.refunded;
    day.redeliveries += row.redeliveries;
  }
  return [...byDay.values()];
}

export function monthToDate(rows: readonly DayRow[]): MonthToDate {
  const total: MonthToDate = { credits: 0, pending: 0, refunds: 0, refundedCredits: 0, redeliveries: 0, entries: 0 };
  for (const row of rows) {
    total.credits += spentOf(row);
    total.pending += row.pending;
    total.refunds += row.refunds;
    total.refundedCredits += row.refunded;
    total.redeliveries += row.redeliveries;
    total.entries += row.entries;
  }
  return total;
}
