import type { QueueConfig } from './config';
import type { NarrationRows, NarrationRow } from '../rows/narration-rows';

/** Why a store was stopped from outside: its lease was lost, or this instance is shutting down. */
export class StoreStopped extends Error {
  constructor(
    readonly why: 'lease-lost' | 'shutdown',
    message: string
  ) {
    super(message);
    this.name = 'StoreStopped';
  }
}

export interface RowLeaseDeps {
  config: Pick<QueueConfig, 'leaseMs'>;
  repository: Pick<NarrationRows, 'apply'>;
  /** The lease's holder, as the row's `leaseOwner` names it: one claim of one worker (store-step.ts). */
  owner: string;
  now: () => Date;
}

/**
 * Keeps the lease of a row while work goes on under it (a download may outlast leaseMs): renews
 * it every third of leaseMs by a conditional update on the owner. When a renewal loses (the row
 * was cancelled, deleted or taken over) or none has succeeded before the lease ran out, the work
 * is aborted through `controller`, and the worker writes nothing more to the row.
 */
export function holdLease({ config, repository, owner, now }: RowLeaseDeps, narration: NarrationRow, controller: AbortController) {
  let expiresAt = narration.leaseExpiresAt ? Date.parse(narration.leaseExpiresAt) : now().getTime() + config.leaseMs;
  let timer: NodeJS.Timeout | null = null;
  let renewing: Promise<void> = Promise.resolve();
  let released = false;

  const renew = async () => {
    const at = now();
    try {
      const outcome = await repository.apply(narration, { type: 'leaseRenewed', owner, leaseMs: config.leaseMs, now: at });
      if (!outcome.applied) {
        controller.abort(new StoreStopped('lease-lost', `the row is no longer ours (${outcome.reason})`));
        return;
      }
      expiresAt = at.getTime() + config.leaseMs;
    } catch (error) {
      // The database may be back before the lease runs out; past that, someone else may own the row.
      if (now().getTime() >= expiresAt) {
        controller.abort(new StoreStopped('lease-lost', `the lease could not be renewed: ${(error as Error).message}`));
        return;
      }
    }
    schedule();
  };
  const schedule = () => {
    if (released || controller.signal.aborted) return;
    timer = setTimeout(
      () => {
        renewing = renew();
      },
      Math.max(50, Math.floor(config.leaseMs / 3))
    );
    timer.unref?.();
  };
  schedule();

  return {
    /** Stops renewing (and waits for a renewal on the wire), before the holder's last write. */
    async release() {
      released = true;
      if (timer) clearTimeout(timer);
      await renewing;
    },
  };
}
