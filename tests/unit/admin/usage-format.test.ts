import { OTHER_SERIES } from '../../../admin/src/utils/usageChart';
import {
  budgetProgress,
  dayDate,
  formatDay,
  formatMonth,
  labelledDays,
  ledgerFileName,
  seriesName,
} from '../../../admin/src/utils/usageFormat';
import { ARTICLE, usageResponse } from './usage-fixtures';

const month = (credits: number, monthlyCredits: number | null, remaining: number | null) =>
  usageResponse({
    monthToDate: { credits, pending: 0, refunds: 0, refundedCredits: 0, redeliveries: 0, entries: 1 },
    budget: { monthlyCredits, remaining, contentTypes: {} },
  });

describe('the month against the budget', () => {
  it('has no bar and no remainder without a budget', () => {
    expect(budgetProgress(month(1_234, null, null))).toEqual({ spent: 1_234, limit: null, remaining: null, ratio: null, state: 'none' });
  });

  it('is ok under 80 %, near from 80 %, reached when nothing remains', () => {
    expect(budgetProgress(month(7_999, 10_000, 2_001))).toMatchObject({ ratio: 0.7999, state: 'ok', remaining: 2_001 });
    expect(budgetProgress(month(8_000, 10_000, 2_000))).toMatchObject({ ratio: 0.8, state: 'near' });
    expect(budgetProgress(month(10_000, 10_000, 0))).toMatchObject({ ratio: 1, state: 'reached', remaining: 0 });
  });

  it('shows a month over its budget (a let-through) as a full bar, reached', () => {
    expect(budgetProgress(month(12_500, 10_000, 0))).toMatchObject({ spent: 12_500, ratio: 1, state: 'reached' });
  });

  it('takes the server’s remainder (what the budget holds narrations by), and works it out only when absent', () => {
    // Pending requests are in the month's credits; the server's figure stays the one shown.
    expect(budgetProgress(month(9_000, 10_000, 500)).remaining).toBe(500);
    expect(budgetProgress(month(9_000, 10_000, null)).remaining).toBe(1_000);
  });

  it('treats a budget of zero as reached: nothing may be spent', () => {
    expect(budgetProgress(month(0, 0, 0))).toMatchObject({ ratio: 1, state: 'reached' });
  });
});

describe('series names', () => {
  const names = { [ARTICLE]: 'Article' };

  it('names a content type by its display name, or by its uid’s last part once the site no longer has it', () => {
    expect(seriesName(ARTICLE, 'contentType', names)).toEqual({ kind: 'name', text: 'Article' });
    expect(seriesName('api::gone.gone', 'contentType', names)).toEqual({ kind: 'name', text: 'gone' });
  });

  it('translates the ledger’s own buckets: previews, transcriptions, entries without a locale, Other', () => {
    expect(seriesName('preview', 'contentType', names)).toMatchObject({ kind: 'message', id: 'usage.series.preview' });
    expect(seriesName('transcription', 'contentType', names)).toMatchObject({ kind: 'message', id: 'usage.series.transcription' });
    expect(seriesName('none', 'locale', names)).toMatchObject({ kind: 'message', id: 'usage.series.noLocale' });
    expect(seriesName(OTHER_SERIES, 'locale', names)).toMatchObject({ kind: 'message', id: 'usage.series.other' });
    expect(seriesName('ar', 'locale', names)).toEqual({ kind: 'name', text: 'ar' });
  });
});

describe('days', () => {
  it('never moves a calendar day to its neighbour, whatever the browser’s time zone', () => {
    expect(dayDate('2026-11-01').toISOString()).toBe('2026-11-01T12:00:00.000Z');
    expect(formatDay('2026-11-01', 'en-GB')).toBe('1 Nov');
    expect(formatDay('2026-12-31', 'en-US', { day: 'numeric', month: 'long', year: 'numeric' })).toBe('December 31, 2026');
  });

  it('writes days and months in the admin’s language (the digits are the locale’s own choice)', () => {
    expect(formatMonth('2026-11', 'en')).toBe('November 2026');
    expect(formatDay('2026-11-27', 'ar')).toMatch(/^(27|٢٧) نوفمبر$/);
    expect(formatMonth('2026-11', 'ar')).toMatch(/نوفمبر/);
  });

  it('labels about eight days under the chart, always today (the last)', () => {
    const thirty = labelledDays(30);
    expect(thirty.has(29)).toBe(true);
    expect(thirty.size).toBeLessThanOrEqual(8);
    expect(thirty.size).toBeGreaterThanOrEqual(6);
    expect(labelledDays(90).size).toBeLessThanOrEqual(8);
    expect([...labelledDays(5)].sort()).toEqual([0, 1, 2, 3, 4]);
  });

  it('names the exported ledger after the day', () => {
    expect(ledgerFileName('2026-11-27')).toBe('speech-ledger-2026-11-27.csv');
  });
});
