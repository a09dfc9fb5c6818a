import { align } from '../../../server/src/verification/domain/alignment';

/** Where the bounded alignment stops, and what it then says: the exact edges the minimum word accuracy allows. */
const words = (prefix: string, count: number) => Array.from({ length: count }, (_, i) => `${prefix}${i}`);

describe('the alignment at the edge of its bound', () => {
  it('past the bound, the one difference runs from the first word that differs to the last, on both sides', () => {
    const start = words('s', 100);
    const end = words('e', 100);
    const sent = [...start, ...words('a', 300), ...end];
    const heard = [...start, ...words('b', 250), ...end];
    const alignment = align(sent, heard, 0.95);
    expect(alignment.wordAccuracy).toBeNull();
    expect(alignment.differences).toEqual([{ sent: { from: 100, to: 400 }, heard: { from: 100, to: 350 } }]);
    expect(alignment).toMatchObject({ sentWords: 500, substitutions: 250, deletions: 50, insertions: 0 });
  });

  it('past the bound with nothing in common at either end, the difference is everything', () => {
    const alignment = align(words('a', 400), words('b', 450), 0.95);
    expect(alignment.differences).toEqual([{ sent: { from: 0, to: 400 }, heard: { from: 0, to: 450 } }]);
    expect(alignment).toMatchObject({ substitutions: 400, insertions: 50, deletions: 0, wordAccuracy: null });
  });

  it('past the bound, a heard text that is the sent one with a run lost keeps its accuracy (only words lost)', () => {
    const sent = [...words('s', 100), ...words('lost', 450), ...words('e', 100)];
    const heard = [...words('s', 100), ...words('e', 100)];
    const alignment = align(sent, heard, 0.99);
    expect(alignment.differences).toEqual([{ sent: { from: 100, to: 550 }, heard: { from: 100, to: 100 } }]);
    expect(alignment.wordAccuracy).toBeCloseTo(1 - 450 / 650, 10);
  });

  it('aligns exactly as many errors as the minimum allows, and stops at one more', () => {
    // 4,000 words at 0.9 allow 400 errors: an edit length of 800 for as many substitutions.
    const sent = words('w', 4_000);
    const replaced = (count: number) => sent.map((word, i) => (i % 10 === 5 && i < count * 10 ? `x${i}` : word));
    const atTheMinimum = align(sent, replaced(400), 0.9);
    expect(atTheMinimum.wordAccuracy).toBeCloseTo(0.9, 10);
    expect(atTheMinimum.differences).toHaveLength(400);
    expect(atTheMinimum.differences[0]).toEqual({ sent: { from: 5, to: 6 }, heard: { from: 5, to: 6 } });
    const pastIt = align(sent, [...replaced(400).slice(0, 3_996), 'y', ...sent.slice(3_997)], 0.9);
    expect(pastIt.wordAccuracy).toBeNull();
    expect(pastIt.differences).toEqual([{ sent: { from: 5, to: 3_997 }, heard: { from: 5, to: 3_997 } }]);
  });

  it('a minimum of 0 aligns whatever differs, and a short text keeps its places under any minimum', () => {
    const unbounded = align(words('a', 400), words('b', 400), 0);
    expect(unbounded.wordAccuracy).toBe(0);
    const sent = words('w', 60);
    const heard = sent.map((word, i) => (i === 10 || i === 50 ? `x${i}` : word));
    const short = align(sent, heard, 0.999);
    expect(short.differences.map((difference) => difference.sent.from)).toEqual([10, 50]);
    expect(short.wordAccuracy).toBeCloseTo(58 / 60, 10);
  });
});
