/**
 * The plugin's admin routes (under /speech), by the handler that answers each: the server
 * registers them from this table (server/src/<feature>/routes.ts) and the admin calls them through
 * `adminUrl`, so a path is written once for both sides. A handler renamed on the server without
 * this table, or the reverse, fails the typecheck (server/src/controllers/index.ts).
 */
export const ADMIN_BASE = '/speech';

export const ADMIN_ROUTES = {
  'admin-settings.get': { method: 'GET', path: '/settings' },
  'admin-settings.update': { method: 'PUT', path: '/settings' },
  'admin-settings.narratedTypes': { method: 'GET', path: '/narrated-types' },
  'admin-settings.testConnection': { method: 'POST', path: '/connection/test' },
  'admin-voices.list': { method: 'GET', path: '/voices' },
  'admin-voices.preview': { method: 'POST', path: '/tts/preview' },
  'admin-narrations.cost': { method: 'POST', path: '/cost' },
  'admin-narrations.estimate': { method: 'POST', path: '/narrations/estimate' },
  'admin-narrations.overview': { method: 'GET', path: '/overview' },
  'admin-narrations.statuses': { method: 'POST', path: '/narrations/statuses' },
  'admin-narrations.forDocument': { method: 'GET', path: '/narrations/document/:documentId' },
  'admin-narrations.versions': { method: 'GET', path: '/narrations/:articleId/versions' },
  'admin-narrations.narrateNow': { method: 'POST', path: '/narrations/narrate' },
  'admin-narrations.regenerate': { method: 'POST', path: '/narrations/regenerate' },
  'admin-narrations.estimateMany': { method: 'POST', path: '/narrations/estimate-many' },
  'admin-narrations.narrateMany': { method: 'POST', path: '/narrations/narrate-many' },
  'admin-narrations.setVoice': { method: 'PUT', path: '/narrations/voice' },
  'admin-narrations.cancel': { method: 'POST', path: '/narrations/cancel' },
  'admin-narrations.paragraphs': { method: 'POST', path: '/narrations/paragraphs' },
  'admin-narrations.passages': { method: 'POST', path: '/narrations/passages' },
  'admin-narrations.setPassageVoice': { method: 'PUT', path: '/narrations/passages/voice' },
  'admin-narrations.lexiconAffected': { method: 'POST', path: '/lexicon/affected' },
  'admin-narrations.listen': { method: 'POST', path: '/narrations/listen' },
  'admin-narrations.resumeQueue': { method: 'POST', path: '/queue/resume' },
  // Sends a narration the monthly budget holds: the settings' update permission.
  'admin-narrations.letThrough': { method: 'POST', path: '/narrations/let-through' },
  'admin-queue.summary': { method: 'GET', path: '/queue' },
  'admin-queue.entries': { method: 'GET', path: '/queue/entries' },
  'admin-queue.estimateRetry': { method: 'POST', path: '/queue/retry/estimate' },
  'admin-queue.retry': { method: 'POST', path: '/queue/retry' },
  'admin-queue.cancel': { method: 'POST', path: '/queue/cancel' },
  // Public contract: other implementations of the service start and follow a backfill here.
  'admin-backfills.estimate': { method: 'POST', path: '/backfills/estimate' },
  'admin-backfills.start': { method: 'POST', path: '/backfills' },
  'admin-backfills.list': { method: 'GET', path: '/backfills' },
  'admin-backfills.findOne': { method: 'GET', path: '/backfills/:id' },
  'admin-backfills.act': { method: 'POST', path: '/backfills/:id/:action' },
  'admin-lexicon.hear': { method: 'POST', path: '/lexicon/hear' },
  'admin-transcriptions.submit': { method: 'POST', path: '/transcriptions' },
  'admin-transcriptions.list': { method: 'GET', path: '/transcriptions' },
  'admin-transcriptions.findOne': { method: 'GET', path: '/transcriptions/:id' },
  'admin-transcriptions.download': { method: 'GET', path: '/transcriptions/:id/download' },
  'admin-transcriptions.save': { method: 'POST', path: '/transcriptions/:id/save' },
  // Public contract: other implementations of the service read `monthToDate.credits` here.
  'admin-credits.usage': { method: 'GET', path: '/usage' },
  'admin-credits.ledgerCsv': { method: 'GET', path: '/usage/ledger.csv' },
  'admin-insights.site': { method: 'GET', path: '/insights' },
  'admin-insights.csv': { method: 'GET', path: '/insights/listening.csv' },
  'admin-insights.document': { method: 'GET', path: '/insights/document/:documentId' },
} as const satisfies Record<string, { method: 'GET' | 'POST' | 'PUT' | 'DELETE'; path: string }>;

export type AdminHandler = keyof typeof ADMIN_ROUTES;

/** The `:name` parameters of a route's path. */
type ParamsOf<Path extends string> = Path extends `${string}:${infer Name}/${infer Rest}`
  ? Name | ParamsOf<Rest>
  : Path extends `${string}:${infer Name}`
    ? Name
    : never;

type PathParams<Handler extends AdminHandler> = ParamsOf<(typeof ADMIN_ROUTES)[Handler]['path']>;

/** A route's URL as the admin calls it, its parameters filled in (encoded): `adminUrl('admin-transcriptions.findOne', { id: 3 })`. */
export function adminUrl<Handler extends AdminHandler>(
  handler: Handler,
  ...[params]: [PathParams<Handler>] extends [never] ? [] : [Record<PathParams<Handler>, string | number>]
): string {
  const path = ADMIN_ROUTES[handler].path.replace(/:(\w+)/g, (_match, name: string) =>
    encodeURIComponent(String((params as Record<string, string | number>)[name]))
  );
  return `${ADMIN_BASE}${path}`;
}
