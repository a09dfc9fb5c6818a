import type { Core } from '@strapi/strapi';
import type { QueueState } from '../../../../shared/contracts/common';

/** Shared by every instance through the plugin store. */

const EMPTY_QUEUE_STATE: QueueState = {
  paused: false,
  pausedUntil: null,
  pauseCode: null,
  pauseReason: null,
  creditsRemaining: null,
  creditsRequired: null,
  creditsSeenAt: null,
};

export function createQueueState(strapi: Core.Strapi) {
  // The store key the queue's state has always had: a running site's pause survives the upgrade.
  const store = () => strapi.store({ type: 'plugin', name: 'speech' });
  return {
    async read(): Promise<QueueState> {
      const raw = (await store().get({ key: 'queue' })) as Partial<QueueState> | null;
      return { ...EMPTY_QUEUE_STATE, ...(raw ?? {}) };
    },

    async update(changes: Partial<QueueState>): Promise<QueueState> {
      const next = { ...(await this.read()), ...changes };
      await store().set({ key: 'queue', value: next });
      return next;
    },
  };
}

export type QueueStateStore = ReturnType<typeof createQueueState>;
