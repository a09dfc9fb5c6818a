import type { Core } from '@strapi/strapi';
import { contentTypeSchema } from '../utils';
import type { CommittedChange, NarrationRow } from '../queue';
import { NARRATION_WEBHOOK_EVENTS, narrationWebhookInfo, webhookEventOf } from './narration-events';
import type { VerificationView } from '../../../shared/contracts/verification';

/**
 * Announces narrations that became ready or failed on Strapi's event hub, where Strapi's webhook
 * runner picks them up for the webhooks subscribed to them (and delivers them like its own entry
 * events). Called for every committed transition of a narration row, so an event goes out once
 * per state change that actually happened: of two instances or two duplicate callbacks racing for
 * one row, only the one whose conditional update won gets here.
 *
 * Never in the worker's way: the announcement runs beside it, and its failures are only logged.
 */

export interface NarrationWebhooksDeps {
  /** The row with its media as the public routes read it (null when it is gone). */
  findRow: (id: number) => Promise<NarrationRow | null>;
  /** The site's public origin, for the narration URLs. */
  contentApiUrl: () => string;
  /** A narration's checks as the admin reads them (verification/). */
  verificationOf: (row: NarrationRow) => Promise<VerificationView | null>;
}

export function createNarrationWebhooks(strapi: Core.Strapi, deps: NarrationWebhooksDeps) {
  const pending = new Set<Promise<void>>();
  const webhookStore = () =>
    strapi.get('webhookStore') as { addAllowedEvent(key: string, value: string): void; removeAllowedEvent?(key: string): void };

  async function announce(webhookEvent: NonNullable<ReturnType<typeof webhookEventOf>>, change: CommittedChange) {
    // The stored row, as the public narration JSON reads it (its files, title, metadata), with the
    // status and error of this transition: the row may already have moved on (a new version queued).
    const stored = await deps.findRow(change.row.id).catch(() => null);
    const row: NarrationRow = stored
      ? { ...stored, status: change.row.status, lastError: change.row.lastError, lastErrorCode: change.row.lastErrorCode }
      : change.row;
    const modelName = contentTypeSchema(strapi, row.contentType)?.modelName ?? null;
    await strapi.eventHub.emit(webhookEvent, narrationWebhookInfo(webhookEvent, row, { base: deps.contentApiUrl(), modelName }));
  }

  /** Runs an announcement beside the caller: its failure is only logged, shutdown waits for it. */
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
    /** Makes the events selectable for webhooks (Strapi refuses events it does not know). */
    registerEvents() {
      for (const [key, value] of Object.entries(NARRATION_WEBHOOK_EVENTS)) webhookStore().addAllowedEvent(key, value);
    },

    unregisterEvents() {
      for (const key of Object.keys(NARRATION_WEBHOOK_EVENTS)) webhookStore().removeAllowedEvent?.(key);
    },

    /** Every committed transition of a narration row comes here (queue/rows/narration-rows.ts); returns at once. */
    transitionCommitted(change: CommittedChange) {
      const webhookEvent = webhookEventOf(change);
      if (webhookEvent) track(webhookEvent, change.row.articleId, announce(webhookEvent, change));
    },

    /** A check of a narration ended in a mismatch or failed (verification/verifier.ts); returns at once. */
    verificationFailed(narrationId: number, articleId: string) {
      track(NARRATION_WEBHOOK_EVENTS.SPEECH_NARRATION_VERIFICATION_FAILED, articleId, announceVerificationFailed(narrationId));
    },

    /** Waits for announcements under way (shutdown: before the database closes). */
    async settle() {
      await Promise.allSettled([...pending]);
    },
  };
}

export type NarrationWebhooks = ReturnType<typeof createNarrationWebhooks>;
