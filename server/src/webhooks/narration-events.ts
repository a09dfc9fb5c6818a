import type { CommittedChange, NarrationRow } from '../queue';
import { narrationJson } from '../narration';
import type { VerificationView } from '../../../shared/contracts/verification';

/**
 * The webhook events the plugin announces through Strapi's own webhook runner, and what they carry.
 * Pure: which committed transition is worth an event, and the event's body.
 */

/** Keys and names as Strapi's webhook store holds them (its own are `ENTRY_CREATE: 'entry.create'`, ...). */
export const NARRATION_WEBHOOK_EVENTS = {
  SPEECH_NARRATION_READY: 'narration.ready',
  SPEECH_NARRATION_FAILED: 'narration.failed',
  SPEECH_NARRATION_VERIFICATION_FAILED: 'narration.verification_failed',
} as const;

export type NarrationWebhookEvent = (typeof NARRATION_WEBHOOK_EVENTS)[keyof typeof NARRATION_WEBHOOK_EVENTS];

/**
 * The event a committed transition announces, if any. `narration.ready`: new audio was linked to
 * the row (a first narration, a new version or a regenerate; also when a newer version is already
 * queued behind it, since the audio front ends serve did change). `narration.failed`: the row
 * entered `failed`, which only happens once retries are used up or a failure cannot be retried;
 * a retry leaves the row queued and announces nothing.
 */
export function webhookEventOf(change: Pick<CommittedChange, 'event' | 'from' | 'patch'>): NarrationWebhookEvent | null {
  if (change.event.type === 'stored') return NARRATION_WEBHOOK_EVENTS.SPEECH_NARRATION_READY;
  if (change.patch.status === 'failed' && !change.from.includes('failed')) return NARRATION_WEBHOOK_EVENTS.SPEECH_NARRATION_FAILED;
  return null;
}

/**
 * The `info` Strapi's webhook runner spreads into the delivered body (`{ event, createdAt, ...info }`).
 * Shaped like Strapi's entry events (`{ model, uid, entry }`): the narrated content type's model
 * name and uid, then the narration as the public narration JSON shows it, plus, for a failure,
 * the code and message the admin shows. No lease, fingerprint or key ever leaves the server.
 */
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

export type NarrationWebhookInfo = ReturnType<typeof narrationWebhookInfo>;
