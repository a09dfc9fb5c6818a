import { DEFAULT_GENERATION_SECONDS, estimateOf, paceOf, roomIn } from '../../../server/src/backfill/domain/pace';

describe("a backfill's pace", () => {
  it('is a day of the queue at its recent speed, or the configured backlog', () => {
    expect(paceOf({ maxInFlight: 3, generationSeconds: [60, 120, 90] })).toEqual({ perDay: 2_880, backlog: 2_880 });
    expect(paceOf({ maxInFlight: 3, generationSeconds: [] })).toEqual({
      perDay: (3 * 86_400) / DEFAULT_GENERATION_SECONDS,
      backlog: (3 * 86_400) / DEFAULT_GENERATION_SECONDS,
    });
    expect(paceOf({ maxInFlight: 2, generationSeconds: [0, 0] }).perDay).toBe(172_800);
    expect(paceOf({ maxInFlight: 3, generationSeconds: [86_400 * 10] }).perDay).toBe(1);
    expect(paceOf({ maxInFlight: 3, generationSeconds: [60], backlog: 20 })).toEqual({ perDay: 4_320, backlog: 20 });
  });

  it('leaves room for what all backfills keep queued, never less than none', () => {
    expect(roomIn({ perDay: 100, backlog: 20 }, 0)).toBe(20);
    expect(roomIn({ perDay: 100, backlog: 20 }, 15)).toBe(5);
    expect(roomIn({ perDay: 100, backlog: 20 }, 25)).toBe(0);
  });
});

describe("a backfill's estimate", () => {
  const pace = { perDay: 100, backlog: 100 };

  it('counts what it read exactly', () => {
    expect(estimateOf({ total: 250, scanned: { entries: 250, candidates: 240, credits: 2_400 }, pace, budgetRemaining: null })).toEqual({
      documents: 240,
      credits: 2_400,
      pace,
      perDay: { documents: 100, credits: 1_000 },
      days: 3,
      budgetRemaining: null,
      extrapolated: false,
    });
  });

  it('takes the rest of a large archive to be like what it read', () => {
    const estimate = estimateOf({
      total: 20_000,
      scanned: { entries: 5_000, candidates: 2_500, credits: 25_000 },
      pace,
      budgetRemaining: 500,
    });
    expect(estimate).toMatchObject({ documents: 10_000, credits: 100_000, days: 100, budgetRemaining: 500, extrapolated: true });
    expect(estimate.perDay).toEqual({ documents: 100, credits: 1_000 });
  });

  it('has nothing to do when every entry is narrated', () => {
    expect(estimateOf({ total: 5, scanned: { entries: 5, candidates: 0, credits: 0 }, pace, budgetRemaining: null })).toMatchObject({
      documents: 0,
      credits: 0,
      days: 0,
      perDay: { documents: 0, credits: 0 },
    });
  });
});
