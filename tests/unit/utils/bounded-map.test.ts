import { boundedMap } from '../../../server/src/utils/bounded-map';

describe('boundedMap', () => {
  const tick = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

  it('keeps at most `limit` under way, and gives the results in the items order', async () => {
    let running = 0;
    let most = 0;
    const results = await boundedMap([30, 5, 20, 1, 10, 2, 8], 3, async (ms, index) => {
      running += 1;
      most = Math.max(most, running);
      await tick(ms);
      running -= 1;
      return `${index}:${ms}`;
    });
    expect(results).toEqual(['0:30', '1:5', '2:20', '3:1', '4:10', '5:2', '6:8']);
    expect(most).toBe(3);
  });

  it('throws the first failure after the work under way has settled, and starts nothing after it', async () => {
    const started: number[] = [];
    const finished: number[] = [];
    const outcome = boundedMap([0, 1, 2, 3, 4, 5], 2, async (item) => {
      started.push(item);
      if (item === 1) throw new Error('gone for good');
      await tick(20);
      finished.push(item);
      return item;
    });
    await expect(outcome).rejects.toThrow('gone for good');
    // Item 0 was under way when item 1 failed: it finished before the failure was thrown; no item after 2 started.
    expect(started).toEqual([0, 1]);
    expect(finished).toEqual([0]);
  });

  it('does nothing for no items and refuses a limit that is not a positive integer', async () => {
    await expect(boundedMap([], 4, async () => 1)).resolves.toEqual([]);
    await expect(boundedMap([1], 0, async () => 1)).rejects.toThrow(RangeError);
  });
});
