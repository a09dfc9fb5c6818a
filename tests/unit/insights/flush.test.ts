import { batchesToWrite, ListeningTally, type ListeningTarget, type TallyBatch } from '../../../server/src/insights/domain/tally';
import { createInsightsService } from '../../../server/src/insights/insights.service';
import type { InsightsRepository } from '../../../server/src/insights/insights.repository';
import { listenedNarration } from './fixtures';

const DAY = '2026-11-27';
const target = (articleId: string): ListeningTarget => ({
  articleId,
  contentType: 'api::article.article',
  documentId: articleId.split('-')[0],
  locale: 'en',
  durationSeconds: 60,
});

/** A drained tally: `articles` narrations, each played by `listeners` listeners (one hash each). */
function drained(articles: number, listeners: number, day = DAY): TallyBatch {
  const tally = new ListeningTally();
  for (let a = 0; a < articles; a += 1) {
    const narration = target(`doc${String(a).padStart(2, '0')}-en`);
    for (let l = 0; l < listeners; l += 1)
      tally.listen(day, narration, `hash-${a}-${l}`, { articleId: narration.articleId, event: 'play', heard: 0 });
  }
  return tally.drain();
}

const articleOf = (batch: TallyBatch) => new Set([...batch.days.map((d) => d.target.articleId), ...batch.uniques.map((u) => u.articleId)]);

describe('batchesToWrite', () => {
  it('keeps each narration day whole with all its hashes, and loses or repeats nothing', () => {
    const batch = drained(12, 30);
    const batches = batchesToWrite(batch, { days: 5, uniques: 200 });
    expect(batches.map((b) => b.days.length)).toEqual([5, 5, 2]);
    expect(batches.map((b) => b.uniques.length)).toEqual([150, 150, 60]);
    for (const part of batches) {
      for (const articleId of articleOf(part)) {
        expect(part.days.filter((d) => d.target.articleId === articleId)).toHaveLength(1);
        expect(part.uniques.filter((u) => u.articleId === articleId)).toHaveLength(30);
      }
    }
    const key = (u: { day: string; articleId: string; hash: string }) => `${u.day}/${u.articleId}/${u.hash}`;
    expect(
      batches
        .flatMap((b) => b.uniques)
        .map(key)
        .sort()
    ).toEqual(batch.uniques.map(key).sort());
    expect(batches.flatMap((b) => b.days)).toHaveLength(12);
  });

  it('cuts by hashes as well as by days, in the order (day, narration)', () => {
    const batches = batchesToWrite(drained(6, 90), { days: 5, uniques: 200 });
    // Two narrations' 180 hashes fit, a third would make 270.
    expect(batches.map((b) => b.uniques.length)).toEqual([180, 180, 180]);
    const order = batches.flatMap((b) => b.days.map((d) => d.target.articleId));
    expect(order).toEqual([...order].sort());
  });

  it('gives a narration with more hashes than the limit a batch of its own rather than splitting it', () => {
    const batches = batchesToWrite(drained(3, 250), { days: 5, uniques: 200 });
    expect(batches.map((b) => [b.days.length, b.uniques.length])).toEqual([
      [1, 250],
      [1, 250],
      [1, 250],
    ]);
  });

  it('fills a batch to exactly the hashes limit', () => {
    const batches = batchesToWrite(drained(2, 100), { days: 5, uniques: 200 });
    expect(batches.map((b) => [b.days.length, b.uniques.length])).toEqual([[2, 200]]);
  });

  it('orders the batches by (day, narration) whatever order the tally counted them in', () => {
    const tally = new ListeningTally();
    for (const [day, articleId] of [
      ['2026-11-28', 'doc01-en'],
      ['2026-11-27', 'doc02-en'],
      ['2026-11-27', 'doc01-en'],
    ])
      tally.listen(day, target(articleId), `hash-${day}-${articleId}`, { articleId, event: 'play', heard: 0 });
    const batches = batchesToWrite(tally.drain(), { days: 1, uniques: 200 });
    expect(batches.map((b) => b.days.map((d) => `${d.day} ${d.target.articleId}`))).toEqual([
      ['2026-11-27 doc01-en'],
      ['2026-11-27 doc02-en'],
      ['2026-11-28 doc01-en'],
    ]);
    expect(batches.map((b) => b.uniques.map((u) => `${u.day} ${u.articleId}`))).toEqual([
      ['2026-11-27 doc01-en'],
      ['2026-11-27 doc02-en'],
      ['2026-11-28 doc01-en'],
    ]);
  });

  it('cuts narration days without hashes by the days limit, and loses none', () => {
    // Milestones after their plays were drained: days to add to, no new hash.
    const tally = new ListeningTally();
    for (let a = 0; a < 3; a += 1)
      tally.listen(DAY, target(`doc0${a}-en`), `hash-${a}`, { articleId: `doc0${a}-en`, event: 'play', heard: 0 });
    tally.drain();
    for (let a = 0; a < 3; a += 1)
      tally.listen(DAY, target(`doc0${a}-en`), `hash-${a}`, { articleId: `doc0${a}-en`, event: 'progress', percent: 10, heard: 0 });
    const batches = batchesToWrite(tally.drain(), { days: 1, uniques: 200 });
    expect(batches.map((b) => [b.days.map((d) => d.target.articleId), b.uniques.length])).toEqual([
      [['doc00-en'], 0],
      [['doc01-en'], 0],
      [['doc02-en'], 0],
    ]);
  });

  it('cuts hashes without narration days by the hashes limit, and loses none', () => {
    const batches = batchesToWrite({ days: [], uniques: drained(3, 150).uniques }, { days: 5, uniques: 200 });
    expect(batches.map((b) => [b.days.length, b.uniques.length])).toEqual([
      [0, 150],
      [0, 150],
      [0, 150],
    ]);
  });

  it('an empty batch makes no batch', () => {
    expect(batchesToWrite({ days: [], uniques: [] }, { days: 5, uniques: 200 })).toEqual([]);
  });
});

describe('the insights flush', () => {
  /** A repository that keeps what it is given and fails the transaction numbered `failAt` once. */
  function memoryRepository(failAt: number) {
    const written: TallyBatch[] = [];
    let calls = 0;
    const repository = {
      async write(batch: TallyBatch) {
        calls += 1;
        if (calls === failAt) throw new Error('the database went away');
        written.push(batch);
      },
      async saltOf() {
        return 'salt';
      },
      async forget() {},
      async pruneDays() {
        return 0;
      },
    } as unknown as InsightsRepository;
    return { repository, written, transactions: () => calls };
  }

  it('writes a large flush in several transactions, and one that fails is written at the next flush, once', async () => {
    const { repository, written, transactions } = memoryRepository(2);
    const warnings: string[] = [];
    const service = createInsightsService({
      strapi: { log: { warn: (message: string) => warnings.push(message) } } as never,
      repository,
      config: { enabled: true, flushSeconds: 3600, retentionDays: 400 },
      views: () => ({ findVisible: async (articleId: string) => listenedNarration(articleId) }) as never,
      now: () => new Date(`${DAY}T12:00:00Z`),
    });
    const access = { anonymous: true, authenticate: async () => null };
    for (let a = 0; a < 12; a += 1) {
      for (let l = 0; l < 30; l += 1) {
        const outcome = await service.listen(
          { articleId: `doc${a}-en`, event: 'play', heard: 0 },
          { address: `203.0.113.${l}`, userAgent: 'Mozilla/5.0 (X11; Linux x86_64) Firefox/130.0' },
          access
        );
        expect(outcome).toBe('counted');
      }
    }

    await service.stop(); // flushes: the second transaction fails, and the third is not tried
    expect(transactions()).toBe(2);
    expect(warnings).toEqual([expect.stringContaining('the database went away')]);
    expect(written).toHaveLength(1);

    await service.stop(); // the next flush writes what was not written, and only that
    expect(transactions()).toBe(4);
    const plays = new Map<string, number>();
    for (const batch of written)
      for (const day of batch.days) plays.set(day.target.articleId, (plays.get(day.target.articleId) ?? 0) + day.plays);
    expect(plays.size).toBe(12);
    expect([...plays.values()]).toEqual(Array(12).fill(30));
    const hashes = written.flatMap((batch) => batch.uniques.map((unique) => unique.hash));
    expect(hashes).toHaveLength(360);
    expect(new Set(hashes).size).toBe(360);
    expect(written.every((batch) => batch.days.length <= 5 && batch.uniques.length <= 200)).toBe(true);
  });
});
