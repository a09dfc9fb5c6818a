import type { Core } from '@strapi/strapi';
import { contentTypeSchema } from '../utils';
import type { CommittedChange, NarrationRow } from '../queue';
import { NARRATION_WEBHOOK_EVENTS, narrationWebhookInfo, webhookEventOf } from './narration-events';
import type { VerificationView } from '../../../shared/contracts/verification';

/**
 * Announces narration events on Strapi's event hub, for its webhook runner. Fed by committed
 * transitions only, so of two racing instances or duplicate callbacks only the winner announces.
 * Runs beside the worker: failures are only logged.
 */

export interface NarrationWebhooksDeps {
  /** Null when the row is gone. */
  findRow: (id: number) => Promise<NarrationRow | null>;
  contentApiUrl: () => string;
  verificationOf: (row: NarrationRow) => Promise<VerificationView | null>;
}

export function createNarrationWebhooks(strapi: Core.Strapi, deps: NarrationWebhooksDeps) {
  const pending = new Set<Promise<void>>();
  const webhookStore = () =>
    strapi.get('webhookStore') as { addAllowedEvent(key: string, value: string): void; removeAllowedEvent?(key: string): void };

  async function announce(webhookEvent: NonNullable<ReturnType<typeof webhookEventOf>>, change: CommittedChange) {
    // The stored row with this transition's status: the row may already have moved on (a new version queued).
    const stored = await deps.findRow(change.row.id).catch(() => null);
    const row: NarrationRow = stored
      ? { ...stored, status: change.row.status, lastError: change.row.lastError, lastErrorCode: change.row.lastErrorCode }
      : change.row;
    const modelName = contentTypeSchema(strapi, row.contentType)?.modelName ?? null;
    await strapi.eventHub.emit(webhookEvent, narrationWebhookInfo(webhookEvent, row, { base: deps.contentApiUrl(), modelName }));
  }

  /** Shutdown waits for it. */
  function track(name: string, articleId: string, work: Promise<void>) {
    const task: Promise<void> = work
      .catch((error) => {
        strapi.log.error(`[speech] could not announce ${name} for ${articleId}: ${(error as Error).message}`);
      })
      .finally(() => pending.delete(task));
    pending.add(task);
  }

  async function announceVerificationFailed(narrationId: number) {
    const row = await deps.findRow(narrationId);
    if (!row) return;
    const event = NARRATION_WEBHOOK_EVENTS.SPEECH_NARRATION_VERIFICATION_FAILED;
    const modelName = contentTypeSchema(strapi, row.contentType)?.modelName ?? null;
    const verification = await deps.verificationOf(row);
    await strapi.eventHub.emit(event, narrationWebhookInfo(event, row, { base: deps.contentApiUrl(), modelName, verification }));
  }

  return {
    /** Strapi refuses events it does not know. */
    registerEvents() {
      for (const [key, value] of Object.entries(NARRATION_WEBHOOK_EVENTS)) webhookStore().addAllowedEvent(key, value);
    },

    unregisterEvents() {
      for (const key of Object.keys(NARRATION_WEBHOOK_EVENTS)) webhookStore().removeAllowedEvent?.(key);
    },

    transitionCommitted(change: CommittedChange) {
      const webhookEvent = webhookEventOf(change);
      if (webhookEvent) track(webhookEvent, change.row.articleId, announce(webhookEvent, change));
    },

    verificationFailed(narrationId: number, articleId: string) {
      track(NARRATION_WEBHOOK_EVENTS.SPEECH_NARRATION_VERIFICATION_FAILED, articleId, announceVerificationFailed(narrationId));
    },

    /** Shutdown waits for these before the database closes. */
    async settle() {
      await Promise.allSettled([...pending]);
    },
  };
}
