import { createFailureEpisodes } from '../../../server/src/utils/failure-episodes';

function episodes(quietMs = 10_000) {
  const lines: string[] = [];
  const clock = { now: 1_000 };
  const log = { error: (m: string) => lines.push(`error ${m}`), info: (m: string) => lines.push(`info ${m}`) };
  return { lines, clock, episodes: createFailureEpisodes(log, 'the queue', { clock: () => clock.now, quietMs }) };
}

describe('failure episodes', () => {
  it('logs one line when failures start and one once it has worked for a quiet while, however many attempts fail', () => {
    const { lines, clock, episodes: outage } = episodes();
    outage.succeeded();
    expect(lines).toEqual([]);
    for (let attempt = 0; attempt < 6; attempt += 1) {
      outage.failed(new Error('Connection terminated unexpectedly'));
      clock.now += 2_000;
    }
    expect(outage.failing()).toBe(true);
    // Dead pooled connections fail once each after the database is back: still the same outage.
    outage.succeeded();
    outage.failed(new Error('Connection terminated unexpectedly'));
    clock.now += 2_000;
    outage.succeeded();
    expect(lines).toHaveLength(1);
    clock.now += 10_000;
    outage.succeeded();
    outage.succeeded();
    expect(lines).toEqual([
      'error [speech] the queue failed: Connection terminated unexpectedly. Retrying on its own; nothing more is logged until it works again.',
      'info [speech] the queue works again (it failed for 12 s, 7 failed attempts).',
    ]);
    expect(outage.failing()).toBe(false);
    outage.failed(new Error('again'));
    expect(lines).toHaveLength(3);
  });
});
