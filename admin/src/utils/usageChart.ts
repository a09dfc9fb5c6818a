import type { UsageDay } from '../../../shared/contracts/usage';

/**
 * The usage chart's numbers: which series a day is stacked by, the stacks, the scale. Pure (no
 * React, no DOM), so the chart's arithmetic is unit-tested without a browser.
 */

/** What the bars are stacked by: the entry's content type or its locale. */
export type StackBy = 'contentType' | 'locale';

/** The series that gathers every series past the largest ones (a chart of 20 colours reads as none). */
export const OTHER_SERIES = '__other__';

/** At most this many series of their own; the rest are one "Other" series. */
export const MAX_SERIES = 6;

export interface StackSegment {
  series: string;
  /** The series' figure that day: credits as the ledger counts them (below zero after a refund), plays. */
  value: number;
  /** Where the segment is drawn, from the axis: refunds are not drawn below it. */
  from: number;
  to: number;
}

export interface DayStack {
  day: string;
  /** The day's figure as the server counts it (credits charged less refunded, plays). */
  value: number;
  segments: StackSegment[];
  /** The top of the drawn stack. */
  top: number;
}

const breakdownOf = (day: UsageDay, by: StackBy): Record<string, number> => (by === 'contentType' ? day.byContentType : day.byLocale);

/**
 * The series of the period, the largest first (ties by name, so the colours stay put between
 * renders); past `max`, the smaller ones are gathered under OTHER_SERIES, listed last.
 */
export function chartSeries(days: readonly UsageDay[], by: StackBy, max = MAX_SERIES): string[] {
  const totals = new Map<string, number>();
  for (const day of days) {
    for (const [series, credits] of Object.entries(breakdownOf(day, by))) totals.set(series, (totals.get(series) ?? 0) + credits);
  }
  const ordered = [...totals.entries()]
    .filter(([, total]) => total !== 0)
    .sort(([a, left], [b, right]) => right - left || a.localeCompare(b))
    .map(([series]) => series);
  if (ordered.length <= max) return ordered;
  return [...ordered.slice(0, max - 1), OTHER_SERIES];
}

/** One day's credits by series, the series past `series` added to OTHER_SERIES. */
export function dayBreakdown(day: UsageDay, by: StackBy, series: readonly string[]): Record<string, number> {
  const shown = new Set(series);
  const values: Record<string, number> = Object.fromEntries(series.map((name) => [name, 0]));
  for (const [name, credits] of Object.entries(breakdownOf(day, by))) {
    const key = shown.has(name) ? name : OTHER_SERIES;
    if (key === OTHER_SERIES && !shown.has(OTHER_SERIES)) continue;
    values[key] = (values[key] ?? 0) + credits;
  }
  return values;
}

/** Every day's stack, the series in the order given (the legend's). Negative values take no height. */
export function stackDays(days: readonly UsageDay[], by: StackBy, series: readonly string[]): DayStack[] {
  return days.map((day) => {
    const values = dayBreakdown(day, by, series);
    let top = 0;
    const segments = series.map((name) => {
      const value = values[name] ?? 0;
      const from = top;
      top += Math.max(0, value);
      return { series: name, value, from, to: top };
    });
    return { day: day.day, value: day.credits, segments, top };
  });
}

/** Days of one series only (plays per day): one segment a day, named `series`. */
export function singleSeriesStacks(days: ReadonlyArray<{ day: string; value: number }>, series: string): DayStack[] {
  return days.map(({ day, value }) => {
    const top = Math.max(0, value);
    return { day, value, segments: [{ series, value, from: 0, to: top }], top };
  });
}

/** A round step for an axis up to `max` in about `count` steps: 1, 2 or 5 times a power of ten. */
export function niceStep(max: number, count = 4): number {
  if (!(max > 0)) return 1;
  const raw = max / count;
  const power = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((factor) => factor * power).find((candidate) => candidate >= raw) ?? 10 * power;
  return Math.max(1, step);
}

/** The axis: from 0 to a round maximum at or above the tallest stack (and the budget's daily share, when shown). */
export function valueScale(maxValue: number, count = 4): { max: number; ticks: number[] } {
  const step = niceStep(maxValue, count);
  const max = Math.max(step, Math.ceil(maxValue / step) * step);
  const ticks: number[] = [];
  for (let value = 0; value <= max + step / 2; value += step) ticks.push(value);
  return { max, ticks };
}

/** Credits of the days of one month (YYYY-MM) in the period: what the chart shows of the month to date. */
export function monthSum(days: readonly UsageDay[], month: string): number {
  return days.filter((day) => day.day.startsWith(`${month}-`)).reduce((sum, day) => sum + day.credits, 0);
}

/** Whether the period starts on or before the month's first day (a 30-day period on the 31st does not). */
export function coversMonth(days: readonly UsageDay[], month: string): boolean {
  return days.length > 0 && days[0].day <= `${month}-01`;
}

/** Totals of the period: credits, refunds and re-deliveries (counted apart from the credits). */
export function periodTotals(days: readonly UsageDay[]) {
  return days.reduce(
    (sum, day) => ({
      credits: sum.credits + day.credits,
      refunds: sum.refunds + day.refunds,
      refundedCredits: sum.refundedCredits + day.refundedCredits,
      redeliveries: sum.redeliveries + day.redeliveries,
    }),
    { credits: 0, refunds: 0, refundedCredits: 0, redeliveries: 0 }
  );
}

/**
 * Colours of the series, by their place in the legend: the design system's hues, dark enough
 * against white for the 3:1 contrast graphics need. OTHER_SERIES is always grey.
 */
export const SERIES_COLOURS = ['#4945ff', '#ee5e52', '#328048', '#8f5d00', '#7b79ff', '#0c75af', '#ac73e6'];
export const OTHER_COLOUR = '#8e8ea9';

export function seriesColour(series: string, index: number): string {
  return series === OTHER_SERIES ? OTHER_COLOUR : SERIES_COLOURS[index % SERIES_COLOURS.length];
}
