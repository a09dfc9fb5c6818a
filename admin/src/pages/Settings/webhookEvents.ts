/**
 * The narration events a webhook may subscribe to (the server registers them with Strapi's
 * webhook store: server/src/webhooks/narration-events.ts). Pure.
 */
export const NARRATION_WEBHOOK_EVENTS = ['narration.ready', 'narration.failed'] as const;
export type NarrationWebhookEvent = (typeof NARRATION_WEBHOOK_EVENTS)[number];

/**
 * A webhook's events with `event` ticked or not. Every other event (Strapi's entry and media
 * events, another plugin's) stays as it was, in its place.
 */
export function withWebhookEvent(events: readonly string[], event: NarrationWebhookEvent, subscribed: boolean): string[] {
  const others = events.filter((name) => name !== event);
  return subscribed ? [...others, event] : others;
}
