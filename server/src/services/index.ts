import type { Core } from '@strapi/strapi';
import { pick, pluginConfig, settingsParts, sliceOf } from '../config';
import { createContentApiAccess } from '../access/content-api-access';
import { createDocumentPermissions } from '../access/document-permissions';
import { createBudgetService } from '../credits/budget.service';
import { createLedgerRepository } from '../credits/ledger.repository';
import { createLedgerService } from '../credits/ledger.service';
import { createUsageService } from '../credits/usage.service';
import { createFeedsService } from '../feeds/service';
import { createInsightsRepository } from '../insights/insights.repository';
import { createInsightsService } from '../insights/insights.service';
import { createInsightsViews } from '../insights/insights-views.service';
import { createLexiconAffected } from '../narration/lexicon-affected.service';
import { createContentReader } from '../narration/content';
import { createNarrationEditorService } from '../narration/narration-editor.service';
import { liveVersionReader } from '../narration/live-version';
import { createNarrationsService } from '../narration/narrations.service';
import { createPendingRecordings } from '../narration/pending-recordings';
import { createNarrationViews } from '../narration/narration-views.service';
import { createVoiceOverrides } from '../narration/voice-overrides';
import { createMetrics } from '../metrics';
import { createQueue, queueConfigShape } from '../queue';
import { createQueuePage } from '../queue-page/queue-page.service';
import { createBackfills } from '../backfill/backfill.service';
import { createSettingsService } from '../settings/service';
import { createSpeechClient } from '../speech-client';
import { createTranscriptionRows } from '../speech-to-text/transcription-rows';
import { createSpeechToTextService } from '../speech-to-text/service';
import { createVoicePreview } from '../voices/voice-preview';
import { createVoicesService } from '../voices/service';
import { voicesConfigShape } from '../voices/config';
import { downloadConfigShape } from '../download/config';
import { speechToTextConfigShape } from '../speech-to-text/config';
import { createNarrationWebhooks } from '../webhooks/narration-webhooks';
import { createCheckRows } from '../verification/check-rows';
import { createVerifier } from '../verification/verifier';
import { createVerificationViews } from '../verification/verification-views.service';

/**
 * The plugin's services by registry name, each its feature's factory. `getService(name)` (utils/)
 * is typed from this table: a service is what its factory returns.
 */
export const FACTORIES = {
  /** The settings in effect: the configuration file, under what an editor saved. */
  settings: createSettingsService,
  /** The one client of the speech service: narration, speech to text and voice previews all go through it. */
  'speech-client': createSpeechClient,
  /** The site's content types and entries as narration reads them. */
  content: createContentReader,
  /** The narration queue: its rows, parts, files and worker, and the service's callbacks. */
  queue: createQueue,
  /** Saves noted before Strapi writes them, until their narration is recorded (the reconciliation records what is left). */
  'pending-recordings': createPendingRecordings,
  /** The voice an editor chose for one article. */
  'voice-overrides': createVoiceOverrides,
  /** The credits ledger: every request that could charge, who caused it, how it ended. */
  ledger: createLedgerService,
  /** The monthly credit budget: what waits for it, what it lets through. */
  budget: createBudgetService,
  /** The usage view: the ledger's days, month and top articles, and its CSV. */
  usage: createUsageService,
  /** Publish and record, the worker's and the reconciliation's lifecycle. */
  narrations: createNarrationsService,
  /** What editors do by hand: narrate now, regenerate, voice, estimates, the queue's overview. */
  'narration-editor': createNarrationEditorService,
  /** The narrations a front end may see (public routes, REST, GraphQL). */
  'narration-views': createNarrationViews,
  /** `narration.ready` / `narration.failed` on Strapi's event hub, for its webhook runner. */
  'narration-webhooks': createNarrationWebhooks,
  /** Which narrated articles the lexicon would change, and at what cost. */
  'lexicon-affected': createLexiconAffected,
  /** The voices editors choose from. */
  voices: createVoicesService,
  /** Voice previews and "listen to this paragraph". */
  'voice-preview': createVoicePreview,
  /** The transcription rows: the only code that writes them. */
  'transcription-rows': createTranscriptionRows,
  /** Speech to text: uploads, following jobs, results. */
  'speech-to-text': createSpeechToTextService,
  /** The Content Manager's permissions, applied to the documents the admin routes act on. */
  'document-permissions': createDocumentPermissions,
  /** Who may read narrations through the content API (REST and GraphQL). */
  'content-api-access': createContentApiAccess,
  /** Podcast feeds of narrated types. */
  feeds: createFeedsService,
  /** Listening insights: the player's events and the feeds' downloads, counted in memory and flushed as daily totals. */
  insights: createInsightsService,
  /** What editors read of listening, as the Content Manager lets them. */
  'insights-views': createInsightsViews,
  /** The checks of stored narrations: the only code that writes them. */
  'check-rows': createCheckRows,
  /** Checks stored narrations of the types that verify by the service's speech to text. */
  verifier: createVerifier,
  /** A narration's `verification` as the admin reads it. */
  'verification-views': createVerificationViews,
  /** Prometheus metrics of the queue (off by default). */
  metrics: createMetrics,
  /** The queue page: the whole queue's figures, what waits and failed, retry and cancel. */
  'queue-page': createQueuePage,
  /** Archive backfill: a type's published entries narrated newest first, at the queue's pace. */
  backfill: createBackfills,
};

type Factories = typeof FACTORIES;
export type ServiceName = keyof Factories;
export type Services = { [Name in ServiceName]: ReturnType<Factories[Name]> };

// getService (utils/index.ts) is typed by this table, which it does not import: the table fills it in.
declare module '../utils' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- the table's types, under the registry's name
  interface ServiceRegistry extends Services {}
}

/** A service of this table, as Strapi built it (utils/index.ts gives the same lookup to the rest of the plugin). */
function getService<Name extends ServiceName>(name: Name): Services[Name] {
  return strapi.plugin('speech').service(name) as Services[Name];
}

/** Built once per Strapi and handed to every service that reads it. */
function once<T>(make: (strapi: Core.Strapi) => T): (strapi: Core.Strapi) => T {
  const built = new WeakMap<Core.Strapi, T>();
  return (strapi) => {
    if (!built.has(strapi)) built.set(strapi, make(strapi));
    return built.get(strapi)!;
  };
}

const describeLive = once(() =>
  liveVersionReader({ settings: getService('settings'), content: getService('content'), voiceOverrides: getService('voice-overrides') })
);
const ledgerRepository = once(createLedgerRepository);
const insightsRepository = once(createInsightsRepository);

/** A narration's end: room in the queue for a backfill's next one. */
const ENDED = new Set(['completed', 'failed', 'cancelled']);

/** What the media store reads of the configuration: the download limits, and the service's hosts. */
function mediaConfig(strapi: Core.Strapi) {
  const config = pluginConfig(strapi);
  return { ...sliceOf(config, downloadConfigShape), ...pick(config, ['baseUrl', 'webUrl']) };
}

/**
 * What each factory is called with: every service's dependencies, named here and nowhere else.
 * A dependency is looked up when its dependant is first asked for (Strapi builds each service
 * once per instance); one read through a function (`() => …`) is looked up at each use, which
 * breaks the one cycle (the budget wakes the queue that asks it).
 */
const WIRING: { [Name in ServiceName]: (strapi: Core.Strapi) => Parameters<Factories[Name]> } = {
  settings: (strapi) => {
    const { apiKey, baseUrl, webUrl, callbackUrl, voiceSource } = pluginConfig(strapi);
    return [{ strapi, parts: settingsParts(strapi), connection: { apiKey, baseUrl, webUrl, callbackUrl, voiceSource } }];
  },
  'speech-client': (strapi) => {
    const { apiKey, baseUrl, webUrl, requestTimeoutMs: timeoutMs, voicesPath } = pluginConfig(strapi);
    return [{ apiKey, baseUrl, webUrl, timeoutMs, voicesPath }];
  },
  content: (strapi) => [strapi],
  'pending-recordings': (strapi) => [strapi],
  'voice-overrides': (strapi) => [strapi],
  queue: (strapi) => {
    const settings = getService('settings');
    const client = getService('speech-client');
    return [
      {
        strapi,
        config: { ...sliceOf(pluginConfig(strapi), queueConfigShape), ...mediaConfig(strapi), apiKey: pluginConfig(strapi).apiKey },
        settings,
        describeLive: describeLive(strapi),
        client: () => client,
        callbackUrl: () => settings.callbackUrl(),
        ledger: getService('ledger'),
        budget: getService('budget'),
        onCommitted: (change) => {
          getService('narration-webhooks').transitionCommitted(change);
          getService('metrics').changeCommitted(change);
          if (change.event.type === 'stored') getService('verifier').wake();
          if (change.row.backfill && ENDED.has(change.patch.status ?? '')) getService('backfill').wake();
        },
      },
    ];
  },
  ledger: (strapi) => [{ strapi, repository: ledgerRepository(strapi), settings: getService('settings') }],
  budget: (strapi) => [{ strapi, settings: getService('settings'), ledger: getService('ledger'), wake: () => getService('queue').wake() }],
  usage: (strapi) => [
    {
      repository: ledgerRepository(strapi),
      settings: getService('settings'),
      budget: getService('budget'),
      ledger: getService('ledger'),
      failures: async () => (await getService('queue').reads.countByStatus()).failed ?? 0,
      checks: (since) => getService('check-rows').counts(since),
      permissions: getService('document-permissions'),
      types: getService('content'),
    },
  ],
  narrations: (strapi) => [
    {
      strapi,
      config: pick(pluginConfig(strapi), ['reconcileIntervalMs', 'reconcileSettleMs', 'worker']),
      settings: getService('settings'),
      queue: getService('queue'),
      content: getService('content'),
      voiceOverrides: getService('voice-overrides'),
      pendingRecordings: getService('pending-recordings'),
      checks: getService('check-rows'),
    },
  ],
  'narration-editor': () => [
    {
      settings: getService('settings'),
      queue: getService('queue'),
      content: getService('content'),
      voiceOverrides: getService('voice-overrides'),
      voices: getService('voices'),
      narrations: getService('narrations'),
    },
  ],
  'narration-views': (strapi) => [
    {
      settings: getService('settings'),
      rows: getService('queue').reads,
      content: getService('content'),
      contentApi: getService('content-api-access'),
      aiLabels: pluginConfig(strapi).player.aiLabel,
    },
  ],
  'narration-webhooks': (strapi) => [
    strapi,
    {
      findRow: (id) => getService('queue').reads.findById(id, true),
      contentApiUrl: () => getService('settings').contentApiUrl(),
      verificationOf: async (row) => (await getService('verification-views').forNarrations([row])).get(row.id) ?? null,
    },
  ],
  'lexicon-affected': () => [
    {
      settings: getService('settings'),
      rows: getService('queue').reads,
      content: getService('content'),
      voiceOverrides: getService('voice-overrides'),
    },
  ],
  voices: (strapi) => [{ config: sliceOf(pluginConfig(strapi), voicesConfigShape), client: getService('speech-client') }],
  'voice-preview': () => {
    const client = getService('speech-client');
    const voices = getService('voices');
    return [{ client: () => client, voices: () => voices.list() }];
  },
  'transcription-rows': (strapi) => [strapi],
  'speech-to-text': (strapi) => [
    {
      strapi,
      config: { ...sliceOf(pluginConfig(strapi), speechToTextConfigShape), ...pick(pluginConfig(strapi), ['requestTimeoutMs', 'worker']) },
      repository: getService('transcription-rows'),
      client: getService('speech-client'),
      ledger: getService('ledger'),
    },
  ],
  'document-permissions': (strapi) => [strapi],
  'content-api-access': (strapi) => [strapi],
  feeds: (strapi) => [
    {
      strapi,
      settings: getService('settings'),
      config: pluginConfig(strapi).feeds,
      content: getService('content'),
      contentApi: getService('content-api-access'),
      queue: getService('queue'),
    },
  ],
  insights: (strapi) => [
    {
      strapi,
      repository: insightsRepository(strapi),
      config: pluginConfig(strapi).insights,
      views: () => getService('narration-views'),
      onFlushed: (seconds) => getService('metrics').insightsFlushed(seconds),
    },
  ],
  'check-rows': (strapi) => [strapi],
  verifier: (strapi) => {
    const config = pluginConfig(strapi);
    const settings = getService('settings');
    return [
      {
        strapi,
        config: {
          ...config.verification,
          pollMs: config.sttPollIntervalMs,
          ...pick(config, ['leaseMs', 'worker', 'downloadTimeoutMs', 'maxAudioBytes']),
        },
        rows: getService('check-rows'),
        narrations: getService('queue').reads,
        client: getService('speech-client'),
        settings,
        describeLive: describeLive(strapi),
        voices: getService('voices'),
        files: getService('queue'),
        ledger: getService('ledger'),
        verificationFailed: (narrationId, articleId) => getService('narration-webhooks').verificationFailed(narrationId, articleId),
        editor: getService('narration-editor'),
      },
    ];
  },
  'verification-views': () => [{ settings: getService('settings'), rows: getService('check-rows') }],
  metrics: (strapi) => [
    {
      config: pluginConfig(strapi).metrics,
      queue: getService('queue'),
      creditsSpent: () => getService('ledger').spentEver(),
      checks: () => getService('check-rows').counts(new Date(0)),
    },
  ],
  'queue-page': () => [
    {
      settings: getService('settings'),
      queue: getService('queue'),
      permissions: getService('document-permissions'),
      types: getService('content'),
      record: (uid, documentId, locale, origin) => getService('narrations').recordFromDocument(uid, documentId, locale, { origin }),
      credits: async () => {
        const [budgetRemaining, balance] = await Promise.all([
          getService('budget').monthRemaining(new Date()),
          getService('ledger').balance(),
        ]);
        return { budgetRemaining, creditsRemaining: balance.creditsRemaining };
      },
    },
  ],
  backfill: (strapi) => [
    {
      strapi,
      config: { ...pluginConfig(strapi).backfill, ...pick(pluginConfig(strapi), ['leaseMs', 'worker', 'maxInFlight']) },
      settings: getService('settings'),
      permissions: getService('document-permissions'),
      types: getService('content'),
      archive: (uid, locale, walk) => getService('narrations').archivePage(uid, locale, walk),
      archiveSize: (uid, locale, before) => getService('narrations').archiveSize(uid, locale, before),
      record: (uid, documentId, locale, origin) => getService('narrations').recordFromDocument(uid, documentId, locale, { origin }),
      queue: getService('queue'),
      fits: (contentType, credits, at) => getService('budget').fits(contentType, credits, at),
      spentBy: (labels) => getService('ledger').spentBy('backfill', labels),
      budgetRemaining: () => getService('budget').monthRemaining(new Date()),
    },
  ],
  'insights-views': (strapi) => [
    {
      strapi,
      repository: insightsRepository(strapi),
      permissions: () => getService('document-permissions'),
      content: () => getService('content'),
    },
  ],
};

/** Strapi's service registry: each name's factory, called with its wiring. */
export default Object.fromEntries(
  (Object.keys(FACTORIES) as ServiceName[]).map((name) => [
    name,
    ({ strapi }: { strapi: Core.Strapi }) => (FACTORIES[name] as (...args: unknown[]) => unknown)(...WIRING[name](strapi)),
  ])
) as { [Name in ServiceName]: ({ strapi }: { strapi: Core.Strapi }) => Services[Name] };
