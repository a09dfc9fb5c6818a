/**
 * The shapes of the plugin's admin routes are the server's own contract (shared/contracts at the
 * package root, which the server's controllers are checked against): one declaration for both
 * sides, so a change on one side that the other does not follow fails `tsc`. Plain types and
 * constants: the admin bundle imports no server code.
 */
export * from '../../../shared/contracts/common';
export * from '../../../shared/contracts/insights';
export * from '../../../shared/contracts/lexicon';
export * from '../../../shared/contracts/narrations';
export * from '../../../shared/contracts/settings';
export * from '../../../shared/contracts/transcriptions';
export * from '../../../shared/contracts/usage';
export * from '../../../shared/contracts/voices';
export * from '../../../shared/contracts/verification';
export * from '../../../shared/contracts/passages';
export * from '../../../shared/contracts/queue';
export * from '../../../shared/contracts/backfills';

/** One of the site's webhooks as Strapi's admin API (`/admin/webhooks`) answers it (not a route of the plugin). */
export interface SiteWebhook {
  id: string;
  name: string;
  url: string;
  headers: Record<string, string>;
  events: string[];
  isEnabled: boolean;
}
