import type { QueueConfig } from './config';
import type { NarrationRows, NarrationRow } from '../rows/narration-rows';

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
  owner: string;
  now: () => Date;
}

/** Renews every third of leaseMs (a download may outlast it); a lost renewal, or none before expiry, aborts the work through `controller`. */
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
