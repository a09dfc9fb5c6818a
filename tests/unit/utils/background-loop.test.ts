import { createBackgroundLoop } from '../../../server/src/utils/background-loop';

/** The loop the worker, the transcription poller, the verifier and the reconciliation run on, under jest's fake clock. */
describe('background loop', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  const logger = () => ({ error: jest.fn(), info: jest.fn() });

  it('runs its first pass after the first delay, then after each delay the pass itself asks for', async () => {
    const delays = [300, 50];
    const passes: number[] = [];
    const loop = createBackgroundLoop({
      log: logger(),
      what: 'the test loop',
      pass: async () => void passes.push(Date.now()),
      nextDelayMs: () => delays.shift() ?? 1_000,
    });
    const started = Date.now();
    loop.start(100);
    await jest.advanceTimersByTimeAsync(99);
    expect(passes).toEqual([]);
    await jest.advanceTimersByTimeAsync(1);
    await jest.advanceTimersByTimeAsync(300);
    await jest.advanceTimersByTimeAsync(50);
    expect(passes.map((at) => at - started)).toEqual([100, 400, 450]);
    await loop.stop();
  });

  it('a wake-up brings the next pass forward; started twice, it keeps one timer', async () => {
    let passes = 0;
    const loop = createBackgroundLoop({ log: logger(), what: 'the test loop', pass: async () => void passes++, nextDelayMs: () => 10_000 });
    loop.start(10_000);
    loop.start(0);
    loop.wakeIn(20);
    await jest.advanceTimersByTimeAsync(20);
    expect(passes).toBe(1);
    await jest.advanceTimersByTimeAsync(9_999);
    expect(passes).toBe(1);
    await jest.advanceTimersByTimeAsync(1);
    expect(passes).toBe(2);
    await loop.stop();
  });

  it('logs an outage once when it starts, and goes on running passes through it', async () => {
    const log = logger();
    let passes = 0;
    const loop = createBackgroundLoop({
      log,
      what: 'the test loop',
      pass: async () => {
        passes++;
        throw new Error('database unreachable');
      },
      nextDelayMs: () => 100,
    });
    loop.start(0);
    await jest.advanceTimersByTimeAsync(1_000);
    expect(passes).toBeGreaterThanOrEqual(10);
    expect(log.error).toHaveBeenCalledTimes(1);
    expect(log.error.mock.calls[0][0]).toMatch(/the test loop failed: database unreachable/);
    await loop.stop();
  });

  it('stop waits for the pass under way and lets no other start, nor a wake-up', async () => {
    let release!: () => void;
    let passes = 0;
    const loop = createBackgroundLoop({
      log: logger(),
      what: 'the test loop',
      pass: () => {
        passes++;
        return new Promise<void>((resolve) => (release = resolve));
      },
      nextDelayMs: () => 10,
    });
    expect(loop.isStopping()).toBe(false);
    loop.start(0);
    await jest.advanceTimersByTimeAsync(0);
    expect(passes).toBe(1);
    let stopped = false;
    const stopping = loop.stop().then(() => (stopped = true));
    loop.wakeIn(0);
    await jest.advanceTimersByTimeAsync(5);
    expect(stopped).toBe(false);
    release();
    await stopping;
    expect(loop.isStopped()).toBe(true);
    expect(loop.isStopping()).toBe(true);
    await jest.advanceTimersByTimeAsync(1_000);
    expect(passes).toBe(1);
  });

  it('a pass that left work behind runs again at once when it asks', async () => {
    let passes = 0;
    const loop = createBackgroundLoop({
      log: logger(),
      what: 'the test loop',
      pass: async () => {
        passes++;
        if (passes < 3) loop.requestRerun();
      },
      nextDelayMs: () => 10_000,
    });
    loop.start(0);
    await jest.advanceTimersByTimeAsync(0);
    expect(passes).toBe(3);
    await loop.stop();
  });

  it('gives each loop an owner of its own unless one is given', () => {
    const pass = async () => undefined;
    const a = createBackgroundLoop({ log: logger(), what: 'a', pass, nextDelayMs: () => 1 });
    const b = createBackgroundLoop({ log: logger(), what: 'b', pass, nextDelayMs: () => 1 });
    expect(a.owner).toMatch(new RegExp(`^${process.pid}-[0-9a-f]{8}$`));
    expect(a.owner).not.toBe(b.owner);
    expect(createBackgroundLoop({ log: logger(), what: 'c', pass, nextDelayMs: () => 1, owner: 'given' }).owner).toBe('given');
  });
});
