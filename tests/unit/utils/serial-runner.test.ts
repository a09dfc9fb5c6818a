import { AsyncLocalStorage } from 'node:async_hooks';
import { createSerialRunner } from '../../../server/src/utils/serial-runner';

/**
 * Strapi picks a query's transaction from an AsyncLocalStorage (its transaction context); this
 * stands in for it. A wake-up from inside a transaction must not run the worker's pass in it.
 */
describe('serial runner', () => {
  const deferred = () => {
    let resolve!: () => void;
    const promise = new Promise<void>((done) => (resolve = done));
    return { promise, resolve };
  };

  it('runs a pass in the context it was made in, not in the context of the caller that woke it', async () => {
    const transaction = new AsyncLocalStorage<{ trx: string }>();
    const seen: Array<string | undefined> = [];
    const runner = createSerialRunner(
      async () => {
        await Promise.resolve();
        seen.push(transaction.getStore()?.trx);
      },
      {
        onError: (error) => {
          throw error;
        },
        isStopped: () => false,
      }
    );
    await transaction.run({ trx: 'publish' }, () => runner.runSoon());
    expect(seen).toEqual([undefined]);
  });

  it('a second wake-up inside a transaction while a pass runs reruns it once, outside that transaction too', async () => {
    const transaction = new AsyncLocalStorage<{ trx: string }>();
    const gate = deferred();
    const seen: Array<string | undefined> = [];
    const runner = createSerialRunner(
      async () => {
        seen.push(transaction.getStore()?.trx);
        if (seen.length === 1) await gate.promise;
      },
      {
        onError: (error) => {
          throw error;
        },
        isStopped: () => false,
      }
    );
    const first = transaction.run({ trx: 'first' }, () => runner.runSoon());
    const again = transaction.run({ trx: 'second' }, () => runner.runSoon());
    transaction.run({ trx: 'third' }, () => runner.runSoon());
    gate.resolve();
    await Promise.all([first, again]);
    expect(seen).toEqual([undefined, undefined]);
    expect(runner.current()).toBeNull();
  });

  it('a failing pass is reported and the next wake-up runs again', async () => {
    const errors: string[] = [];
    let passes = 0;
    const runner = createSerialRunner(
      async () => {
        passes += 1;
        if (passes === 1) throw new Error('database went away');
      },
      { onError: (error) => errors.push(error.message), isStopped: () => false }
    );
    await runner.runSoon();
    await runner.runSoon();
    expect(errors).toEqual(['database went away']);
    expect(passes).toBe(2);
  });

  it("a wake-up from someone's request runs the pass after that request's own work of this turn, and not once stopped", async () => {
    const order: string[] = [];
    let stopped = false;
    const runner = createSerialRunner(
      async () => {
        order.push('pass');
      },
      { onError: (error) => order.push(error.message), isStopped: () => stopped }
    );
    // A publish's answer is written in promise callbacks after the recording woke the worker.
    await Promise.resolve().then(() => {
      runner.runAfterThisTurn();
      return Promise.resolve().then(() => order.push('answer written'));
    });
    expect(order).toEqual(['answer written']);
    await new Promise((resolve) => setImmediate(resolve));
    await runner.current();
    expect(order).toEqual(['answer written', 'pass']);

    runner.runAfterThisTurn();
    stopped = true;
    await new Promise((resolve) => setImmediate(resolve));
    expect(runner.current()).toBeNull();
    expect(order).toEqual(['answer written', 'pass']);
  });
});
