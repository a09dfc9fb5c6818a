import { csvCell, csvLine } from '../../../server/src/http/csv';
import { dayKeyOf, deltaOnRecord, deltaOnSettle, sourceOf, spentOf } from '../../../server/src/credits/domain/totals';
import { monthToDate, usageDays } from '../../../server/src/credits/domain/usage-view';

describe("the ledger's totals (credits/domain/totals.ts)", () => {
  const narration = {
    kind: 'narration' as const,
    contentType: 'api::article.article',
    targetLocale: 'ar',
    credits: 120,
    outcome: 'pending' as const,
  };

  it('keys a day total by content type (or previews, transcriptions), locale and kind', () => {
    expect(dayKeyOf(narration, '2026-11-27')).toEqual({
      day: '2026-11-27',
      source: 'api::article.article',
      targetLocale: 'ar',
      kind: 'narration',
    });
    expect(sourceOf({ kind: 'paragraph-preview', contentType: 'api::article.article' })).toBe('preview');
    expect(sourceOf({ kind: 'voice-preview', contentType: null })).toBe('preview');
    expect(sourceOf({ kind: 'transcription', contentType: null })).toBe('transcription');
    expect(dayKeyOf({ ...narration, kind: 'voice-preview', contentType: null, targetLocale: null }, '2026-11-27').targetLocale).toBe('');
  });

  it('a pending entry is charged and pending; settled, it leaves what its outcome says', () => {
    const recorded = deltaOnRecord(narration);
    expect(recorded).toEqual({ charged: 120, refunded: 0, pending: 120, entries: 1, refunds: 0, redeliveries: 0 });
    const generated = deltaOnSettle(120, 'pending', 'generated');
    expect(generated).toEqual({ charged: 0, refunded: 0, pending: -120, entries: 0, refunds: 0, redeliveries: 0 });
    const refunded = deltaOnSettle(120, 'pending', 'refunded');
    expect(refunded).toEqual({ charged: 0, refunded: 120, pending: -120, entries: 0, refunds: 1, redeliveries: 0 });
    expect(spentOf({ charged: recorded.charged + refunded.charged, refunded: recorded.refunded + refunded.refunded })).toBe(0);
    expect(deltaOnSettle(0, 'pending', 'redelivered')).toEqual({
      charged: 0,
      refunded: 0,
      pending: 0,
      entries: 0,
      refunds: 0,
      redeliveries: 1,
    });
  });

  it('an outcome settled again takes back what the old one counted (a refund, a re-delivery)', () => {
    expect(deltaOnSettle(120, 'refunded', 'generated')).toEqual({
      charged: 0,
      refunded: -120,
      pending: 0,
      entries: 0,
      refunds: -1,
      redeliveries: 0,
    });
    expect(deltaOnSettle(0, 'redelivered', 'refunded')).toEqual({
      charged: 0,
      refunded: 0,
      pending: 0,
      entries: 0,
      refunds: 1,
      redeliveries: -1,
    });
  });

  it('counts a preview of an article as a preview, not as its content type', () => {
    expect(sourceOf({ kind: 'paragraph-preview', contentType: 'api::article.article' })).toBe(
      sourceOf({ kind: 'voice-preview', contentType: null })
    );
    expect(sourceOf({ kind: 'paragraph-preview', contentType: 'api::article.article' })).not.toBe('api::article.article');
  });

  it('an entry recorded with its outcome known counts it at once (a preview, a refund that failed)', () => {
    expect(deltaOnRecord({ credits: 30, outcome: 'generated' })).toEqual({
      charged: 30,
      refunded: 0,
      pending: 0,
      entries: 1,
      refunds: 0,
      redeliveries: 0,
    });
    expect(spentOf(deltaOnRecord({ credits: 500, outcome: 'refund-failed' }))).toBe(500);
  });
});

describe('the usage view from the day totals (credits/domain/usage-view.ts)', () => {
  const row = (day: string, source: string, targetLocale: string, charged: number, refunded = 0) => ({
    day,
    source,
    targetLocale,
    kind: 'narration' as const,
    charged,
    refunded,
    pending: 0,
    entries: 1,
    refunds: refunded ? 1 : 0,
    redeliveries: 0,
  });

  it('every day shown, zeros included, stacked by type and locale; rows of other days left out', () => {
    const days = usageDays(
      ['2026-11-26', '2026-11-27'],
      [
        row('2026-11-27', 'api::article.article', 'en', 100),
        row('2026-11-27', 'preview', '', 20),
        row('2026-11-27', 'api::page.page', 'ar', 50, 50),
        row('2026-10-01', 'api::article.article', 'en', 999),
      ]
    );
    expect(days[0]).toEqual({
      day: '2026-11-26',
      credits: 0,
      byContentType: {},
      byLocale: {},
      refunds: 0,
      refundedCredits: 0,
      redeliveries: 0,
    });
    expect(days[1]).toEqual({
      day: '2026-11-27',
      credits: 120,
      byContentType: { 'api::article.article': 100, preview: 20 },
      byLocale: { en: 100, none: 20 },
      refunds: 1,
      refundedCredits: 50,
      redeliveries: 0,
    });
  });

  it('adds up pending credits and re-deliveries over the rows of a day and of the month', () => {
    const waiting = { ...row('2026-11-27', 'a', 'en', 10), pending: 10, redeliveries: 2 };
    const more = { ...row('2026-11-27', 'a', 'en', 5), pending: 5, redeliveries: 1 };
    expect(usageDays(['2026-11-27'], [waiting, more])[0].redeliveries).toBe(3);
    expect(monthToDate([waiting, more])).toMatchObject({ pending: 15, redeliveries: 3, entries: 2 });
  });

  it("the month's totals: charged less refunded", () => {
    expect(monthToDate([row('2026-11-01', 'a', 'en', 100), row('2026-11-02', 'a', 'en', 40, 40)])).toEqual({
      credits: 100,
      pending: 0,
      refunds: 1,
      refundedCredits: 40,
      redeliveries: 0,
      entries: 2,
    });
  });
});

describe("the ledger's CSV (http/csv.ts)", () => {
  it('quotes what needs quoting and ends lines with CRLF', () => {
    expect(csvLine(['a', 'b,c', 'say "hi"', 'two\nlines', null, 12, false])).toBe('a,"b,c","say ""hi""","two\nlines",,12,false\r\n');
  });

  it('never lets a title run as a spreadsheet formula', () => {
    for (const formula of ['=HYPERLINK("x")', '+1', '-2+3', '@SUM(A1)', '\tTab', '\rCR'])
      expect(csvCell(formula).replace(/^"/, '').startsWith("'")).toBe(true);
    expect(csvCell(-5)).toBe('-5');
    expect(csvCell(new Date('2026-11-27T00:00:00Z'))).toBe('2026-11-27T00:00:00.000Z');
  });
});
