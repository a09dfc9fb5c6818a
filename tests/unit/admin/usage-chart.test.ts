import {
  MAX_SERIES,
  OTHER_SERIES,
  OTHER_COLOUR,
  SERIES_COLOURS,
  chartSeries,
  coversMonth,
  dayBreakdown,
  monthSum,
  niceStep,
  periodTotals,
  seriesColour,
  stackDays,
  valueScale,
} from '../../../admin/src/utils/usageChart';
import { ARTICLE, NOTE, usageDay } from './usage-fixtures';

describe('the chart series', () => {
  const days = [
    usageDay('2026-11-25', 300, { byContentType: { [ARTICLE]: 200, [NOTE]: 100 }, byLocale: { en: 250, ar: 50 } }),
    usageDay('2026-11-26', 90, { byContentType: { [NOTE]: 60, preview: 30 }, byLocale: { ar: 60, none: 30 } }),
  ];

  it('orders the series by their total over the period, largest first, by content type or by locale', () => {
    expect(chartSeries(days, 'contentType')).toEqual([ARTICLE, NOTE, 'preview']);
    expect(chartSeries(days, 'locale')).toEqual(['en', 'ar', 'none']);
  });

  it('breaks ties by name, so a series keeps its colour from one render to the next', () => {
    const tied = [usageDay('2026-11-01', 20, { byContentType: { 'api::b.b': 10, 'api::a.a': 10 } })];
    expect(chartSeries(tied, 'contentType')).toEqual(['api::a.a', 'api::b.b']);
    expect(chartSeries([...tied].reverse(), 'contentType')).toEqual(['api::a.a', 'api::b.b']);
  });

  it('leaves out series whose credits add up to nothing (a charge refunded in the period)', () => {
    const refunded = [
      usageDay('2026-11-01', 0, { byContentType: { [ARTICLE]: 40 } }),
      usageDay('2026-11-02', 0, { byContentType: { [ARTICLE]: -40 } }),
    ];
    expect(chartSeries(refunded, 'contentType')).toEqual([]);
  });

  it('gathers the smaller series under Other past the limit, and adds their credits there', () => {
    const many = Object.fromEntries(Array.from({ length: MAX_SERIES + 2 }, (_, index) => [`api::t${index}.t${index}`, 100 - index]));
    const day = usageDay('2026-11-03', 0, { byContentType: many });
    const series = chartSeries([day], 'contentType');
    expect(series).toHaveLength(MAX_SERIES);
    expect(series.at(-1)).toBe(OTHER_SERIES);
    expect(series.slice(0, 2)).toEqual(['api::t0.t0', 'api::t1.t1']);
    const values = dayBreakdown(day, 'contentType', series);
    // The first MAX_SERIES - 1 keep their own; the other three (100-5, 100-6, 100-7) are one.
    expect(values[OTHER_SERIES]).toBe(95 + 94 + 93);
    expect(Object.values(values).reduce((sum, value) => sum + value, 0)).toBe(Object.values(many).reduce((sum, value) => sum + value, 0));
  });
});

describe('the stacks', () => {
  it('stacks each day in the legend’s order, every segment on top of the one before', () => {
    const days = [usageDay('2026-11-25', 300, { byContentType: { [ARTICLE]: 200, [NOTE]: 100 } }), usageDay('2026-11-26', 0)];
    const [first, empty] = stackDays(days, 'contentType', [ARTICLE, NOTE]);
    expect(first.segments).toEqual([
      { series: ARTICLE, value: 200, from: 0, to: 200 },
      { series: NOTE, value: 100, from: 200, to: 300 },
    ]);
    expect(first).toMatchObject({ day: '2026-11-25', value: 300, top: 300 });
    expect(empty.top).toBe(0);
    expect(empty.segments.map((segment) => segment.value)).toEqual([0, 0]);
  });

  it('draws a series below zero (refunds of an earlier day) with no height, but keeps its figure', () => {
    const [day] = stackDays([usageDay('2026-11-25', 50, { byContentType: { [ARTICLE]: 80, [NOTE]: -30 } })], 'contentType', [
      ARTICLE,
      NOTE,
    ]);
    expect(day.segments[1]).toEqual({ series: NOTE, value: -30, from: 80, to: 80 });
    expect(day.top).toBe(80);
    expect(day.value).toBe(50);
  });
});

describe('the value axis', () => {
  it('steps by 1, 2 or 5 times a power of ten', () => {
    expect(niceStep(100)).toBe(50);
    expect(niceStep(9)).toBe(5);
    expect(niceStep(12_345)).toBe(5_000);
    expect(niceStep(0)).toBe(1);
  });

  it('reaches at or above the tallest stack, from zero, in round ticks', () => {
    expect(valueScale(12_345)).toEqual({ max: 15_000, ticks: [0, 5_000, 10_000, 15_000] });
    expect(valueScale(400)).toEqual({ max: 400, ticks: [0, 100, 200, 300, 400] });
    expect(valueScale(0)).toEqual({ max: 1, ticks: [0, 1] });
    for (const max of [1, 7, 99, 101, 2_500, 987_654]) {
      const scale = valueScale(max);
      expect(scale.max).toBeGreaterThanOrEqual(max);
      expect(scale.ticks[0]).toBe(0);
      expect(scale.ticks.at(-1)).toBe(scale.max);
    }
  });
});

describe('sums', () => {
  const days = [
    usageDay('2026-10-30', 1_000, { refunds: 1, refundedCredits: 200 }),
    usageDay('2026-11-01', 300, { redeliveries: 2 }),
    usageDay('2026-11-27', 45, { refunds: 2, refundedCredits: 90, redeliveries: 1 }),
  ];

  it('adds up the days of one month only: the month to date as the chart shows it', () => {
    expect(monthSum(days, '2026-11')).toBe(345);
    expect(monthSum(days, '2026-10')).toBe(1_000);
    expect(monthSum(days, '2026-12')).toBe(0);
  });

  it('knows when the period starts after the month’s first day (its sum is then not the whole month)', () => {
    expect(coversMonth(days, '2026-11')).toBe(true);
    expect(coversMonth(days.slice(1), '2026-11')).toBe(true);
    expect(coversMonth(days.slice(2), '2026-11')).toBe(false);
    expect(coversMonth([], '2026-11')).toBe(false);
  });

  it('counts refunds and free re-deliveries apart from the credits', () => {
    expect(periodTotals(days)).toEqual({ credits: 1_345, refunds: 3, refundedCredits: 290, redeliveries: 3 });
  });
});

it('gives Other its grey, and the series their colours in legend order', () => {
  expect(seriesColour(OTHER_SERIES, 0)).toBe(OTHER_COLOUR);
  expect(seriesColour(ARTICLE, 0)).not.toBe(seriesColour(NOTE, 1));
});

/** WCAG's contrast ratio of a #rrggbb colour against white. */
function contrastOnWhite(hex: string): number {
  const channels = [1, 3, 5].map((index) => parseInt(hex.slice(index, index + 2), 16) / 255);
  const [r, g, b] = channels.map((value) => (value <= 0.03928 ? value / 12.92 : ((value + 0.055) / 1.055) ** 2.4));
  const luminance = 0.2126 * r + 0.7152 * g + 0.0722 * b;
  return 1.05 / (luminance + 0.05);
}

it('draws every series at 3:1 or more against the white card (WCAG non-text contrast), each in a colour of its own', () => {
  for (const colour of [...SERIES_COLOURS, OTHER_COLOUR])
    expect({ colour, enough: contrastOnWhite(colour) >= 3 }).toEqual({ colour, enough: true });
  expect(new Set([...SERIES_COLOURS, OTHER_COLOUR]).size).toBe(SERIES_COLOURS.length + 1);
});
