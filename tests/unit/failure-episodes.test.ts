import { createFailureEpisodes } from '../../server/src/utils/failure-episodes';

describe('failure episodes', () => {
  it('logs one line when failures start and one when they end, however many attempts fail', () => {
    const lines: string[] = [];
    let clock = 1_000;
    const episodes = createFailureEpisodes(
      { error: (m) => lines.push(`error ${m}`), info: (m) => lines.push(`info ${m}`) },
      'the queue',
      () => clock
    );
    episodes.succeeded();
    expect(lines).toEqual([]);
    for (let attempt = 0; attempt < 6; attempt += 1) {
      episodes.failed(new Error('Connection terminated unexpectedly'));
      clock += 2_000;
    }
    expect(episodes.failing()).toBe(true);
    episodes.succeeded();
    episodes.succeeded();
    expect(lines).toEqual([
      'error [speech] the queue failed: Connection terminated unexpectedly. Retrying on its own; nothing more is logged until it works again.',
      'info [speech] the queue works again after 12 s (6 failed attempts).',
    ]);
    expect(episodes.failing()).toBe(false);
    episodes.failed(new Error('again'));
    expect(lines).toHaveLength(3);
  });
});
