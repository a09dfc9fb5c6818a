import type { Core } from '@strapi/strapi';
import type { NarrationTrigger, SpeechSettings } from '../../../shared/contracts/settings';
import { AUTOMATIC, type Origin } from '../credits';
import { versionUnrecorded } from './domain/reconcile';
import type { SettingsService } from '../settings';
import type { Queue, QueueConfig } from '../queue';
import type { NarrationConfig } from './config';
import type { ArchiveCursor, ContentReader } from './content';
import type { PendingRecordings } from './pending-recordings';
import type { VoiceChoices, VoiceOverrides } from './voice-overrides';
import type { Passage } from '../passages';
import { createPendingWork } from '../utils';
import { createReconciler } from './reconciler';

export interface NarrationsServiceDeps {
  strapi: Core.Strapi;
  config: Pick<NarrationConfig, 'reconcileIntervalMs' | 'reconcileSettleMs'> & Pick<QueueConfig, 'worker'>;
  settings: SettingsService;
  queue: Queue;
  content: ContentReader;
  voiceOverrides: VoiceOverrides;
  pendingRecordings: PendingRecordings;
  checks: { removeForNarrations: (narrationIds: readonly number[]) => Promise<void> };
}

export function createNarrationsService(deps: NarrationsServiceDeps) {
  const { strapi, config, settings, queue, content, voiceOverrides, checks } = deps;
  const pending = createPendingWork();
  let stopping: Promise<void> | null = null;
  const reconciler = reconcilerOf(deps, (uid, documentId, locale) =>
    service.recordFromDocument(uid, documentId, locale, { reconciling: true })
  );

  const service = {
    /** An after-commit enqueue, kept so that shutdown and tests can wait for it. */
    track: pending.track,
    settled: pending.settled,

    async triggerFor(uid: string): Promise<NarrationTrigger | null> {
      const narrated = (await settings.get()).contentTypes[uid];
      return narrated ? (narrated.trigger ?? null) : null;
    },

    /** No network, at most one write; `reconciling`: only a version never recorded, never a retry. */
    async recordFromDocument(
      uid: string,
      documentId: string,
      locale: string | null,
      { reconciling = false, origin = AUTOMATIC }: { reconciling?: boolean; origin?: Origin } = {}
    ): Promise<{ queued: boolean; reason?: string }> {
      const current = await settings.get();
      const typeSettings = current.contentTypes[uid];
      if (!typeSettings) return { queued: false, reason: 'this content type is not narrated' };
      const entry = await content.loadLive(uid, documentId, locale);
      if (!entry) return { queued: false, reason: 'the content is not published' };
      const choices = await voiceOverrides.choices(content.articleIdFor(uid, documentId, entry.locale ?? locale));
      const version = content.describe(uid, entry, typeSettings, current, choices);
      if (reconciling && !versionUnrecorded(await queue.reads.findByArticleId(version.articleId), version)) {
        return { queued: false, reason: 'this version is already recorded' };
      }
      const outcome = await queue.record(version, origin);
      await prunePassageChoices(deps, uid, documentId, locale, version.passages, choices, current);
      return outcome;
    },

    archivePage: archivePageOf(deps),
    archiveSize: (uid: string, locale: string | null, publishedBefore: Date) => content.liveCountBefore(uid, locale, publishedBefore),

    async cancelDocument(uid: string, documentId: string, locale: string | null) {
      for (const row of await queue.reads.findForDocument(uid, documentId)) {
        if (locale && row.targetLocale !== locale) continue;
        await queue.cancel(row);
      }
    },

    async forgetDocument(uid: string, documentId: string, locale: string | null) {
      for (const row of await queue.reads.findForDocument(uid, documentId)) {
        if (locale && row.targetLocale !== locale) continue;
        await queue.forget(row);
        await checks.removeForNarrations([row.id]);
      }
      await voiceOverrides.removeForDocument(uid, documentId, content.isLocalized(uid) ? locale : null);
    },

    async start() {
      const moved = await voiceOverrides.migrateLegacyStore();
      if (moved) strapi.log.info(`[speech] moved ${moved} voice override(s) from the plugin store to their own table`);
      if (config.worker) {
        queue.start();
        reconciler.start();
      }
    },
    reconcile: () => reconciler.runOnce(),
    /** Idempotent: a second call waits for the first shutdown instead of racing it. */
    stop() {
      stopping ??= (async () => {
        await reconciler.stop();
        await queue.stop();
        await this.settled();
      })();
      return stopping;
    },
  };
  return service;
}

export type NarrationsService = ReturnType<typeof createNarrationsService>;

/**
 * A page of the archive newest first, each live entry with what narrating it would cost and
 * whether it has a narration already (queued, failed or stored: a backfill leaves it to the editors).
 * Three reads a page besides the entries: the voice choices, the passages' and the narrations.
 */
function archivePageOf({ settings, content, voiceOverrides, queue }: NarrationsServiceDeps) {
  return async (uid: string, locale: string | null, walk: { publishedBefore: Date; after: ArchiveCursor | null; limit: number }) => {
    const current = await settings.get();
    const typeSettings = current.contentTypes[uid];
    if (!typeSettings) return [];
    const entries = await content.liveBefore(uid, locale, walk);
    const articleIds = entries.map((entry) => content.articleIdFor(uid, entry.documentId, entry.locale ?? locale));
    const [choices, rows] = await Promise.all([voiceOverrides.choicesMany(articleIds), queue.reads.findByArticleIds(articleIds)]);
    const narrated = new Set(rows.map((row) => row.articleId));
    return entries.map((entry, index) => ({
      documentId: entry.documentId,
      publishedAt: new Date(entry.publishedAt as string | Date).toISOString(),
      credits: content.describe(uid, entry, typeSettings, current, choices.get(articleIds[index])!).credits,
      narrated: narrated.has(articleIds[index]),
    }));
  };
}

/** Finds what a crash or a lost after-commit hook left unrecorded, in the types narrated automatically. */
function reconcilerOf(
  { strapi, config, settings, content, pendingRecordings }: NarrationsServiceDeps,
  record: (uid: string, documentId: string, locale: string | null) => Promise<{ queued: boolean }>
) {
  return createReconciler({
    strapi,
    intervalMs: config.reconcileIntervalMs,
    settleMs: config.reconcileSettleMs,
    narratedTypes: async () =>
      Object.entries((await settings.get()).contentTypes)
        .filter(
          ([uid, typeSettings]) =>
            Boolean(typeSettings.trigger) && typeSettings.trigger !== 'off' && uid.startsWith('api::') && content.exists(uid)
        )
        .map(([uid]) => uid),
    isLocalized: content.isLocalized,
    record,
    pending: pendingRecordings,
  });
}

/** Passage choices neither the recorded version nor the draft has go, so they stay as many as the passages. */
async function prunePassageChoices(
  { content, voiceOverrides }: Pick<NarrationsServiceDeps, 'content' | 'voiceOverrides'>,
  uid: string,
  documentId: string,
  locale: string | null,
  passages: readonly Passage[] | null,
  choices: VoiceChoices,
  current: SpeechSettings
) {
  if (!passages) return;
  const keys = (list: readonly Passage[] | null) => new Set((list ?? []).map((passage) => passage.key));
  const recorded = keys(passages);
  const stale = Object.keys(choices.passages ?? {}).filter((key) => !recorded.has(key));
  if (stale.length === 0) return;
  const draft = await content.loadDraft(uid, documentId, locale);
  const drafted = draft ? keys(content.describe(uid, draft, current.contentTypes[uid], current, choices).passages) : new Set<string>();
  await voiceOverrides.removePassages(
    content.articleIdFor(uid, documentId, draft?.locale ?? locale),
    stale.filter((key) => !drafted.has(key))
  );
}
