import type { CommittedChange, NarrationRow } from '../queue';
import { narrationJson } from '../narration';
import type { VerificationView } from '../../../shared/contracts/verification';

/** As Strapi's webhook store holds them (its own are `ENTRY_CREATE: 'entry.create'`, ...). */
export const NARRATION_WEBHOOK_EVENTS = {
  SPEECH_NARRATION_READY: 'narration.ready',
  SPEECH_NARRATION_FAILED: 'narration.failed',
  SPEECH_NARRATION_VERIFICATION_FAILED: 'narration.verification_failed',
} as const;

export type NarrationWebhookEvent = (typeof NARRATION_WEBHOOK_EVENTS)[keyof typeof NARRATION_WEBHOOK_EVENTS];

/**
 * `narration.ready` whenever new audio was linked, even with a newer version queued (what front ends
 * serve changed); `narration.failed` only once retries are used up, so a retry announces nothing.
 */
export function webhookEventOf(change: Pick<CommittedChange, 'event' | 'from' | 'patch'>): NarrationWebhookEvent | null {
  if (change.event.type === 'stored') return NARRATION_WEBHOOK_EVENTS.SPEECH_NARRATION_READY;
  if (change.patch.status === 'failed' && !change.from.includes('failed')) return NARRATION_WEBHOOK_EVENTS.SPEECH_NARRATION_FAILED;
  return null;
}

/** Shaped like Strapi's entry events (`{ model, uid, entry }`); no lease, fingerprint or key leaves the server. */
export function narrationWebhookInfo(
  webhookEvent: NarrationWebhookEvent,
  row: NarrationRow,
  options: { base: string; modelName: string | null; verification?: VerificationView | null }
) {
  const failed = webhookEvent === NARRATION_WEBHOOK_EVENTS.SPEECH_NARRATION_FAILED;
  return {
    model: options.modelName,
    uid: row.contentType,
    narration: {
      ...narrationJson(row, options.base),
      error: failed ? { code: row.lastErrorCode, message: row.lastError } : null,
    },
    ...(webhookEvent === NARRATION_WEBHOOK_EVENTS.SPEECH_NARRATION_VERIFICATION_FAILED
      ? { verification: options.verification ?? null }
      : {}),
  };
}
