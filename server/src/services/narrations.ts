import type { Core } from '@strapi/strapi';
import type { NarrationTrigger } from '../config/schema';
import { articleKey } from '../narration/article';
import { countCharacters } from '../narration/cost';
import { narrationParagraphs } from '../narration/text';
import type { NarrationRow } from '../narration/jobs.repository';
import { verifyCallbackSignature } from '../speech-client';
import type { ContentApiAuth } from '../access/content-api-access';
import { getService } from '../utils';
import { createReconciler } from '../narration/reconciler';
import { versionUnrecorded } from '../narration/reconcile';

/**
 * The narration use cases, as the document middleware, the controllers and the content API call
 * them: record a published version, narrate, regenerate, cancel, estimate, receive the service's
 * callback, and find what a front end may see. The queue itself is the `jobs` service; the
 * `worker` submits and stores.
 */

export interface CallbackInput {
  articleId: string;
  audioFile: string | null;
  srtFile: string | null;
  signature: string;
}

export type CallbackOutcome =
  | { status: 'unauthorized' }
  | { status: 'accepted' | 'duplicate' | 'failure-recorded' | 'ignored'; reason?: string };

export function createNarrationsService({ strapi }: { strapi: Core.Strapi }) {
  const settings = getService('settings');
  const { config } = settings;
  const repository = getService('jobs');
  const content = getService('content');
  const media = getService('media');
  const voiceOverrides = getService('voice-overrides');
  const contentApi = getService('content-api-access');
  const worker = getService('worker');
  const voices = getService('voices');
  const pending = new Set<Promise<unknown>>();
  let stopping: Promise<void> | null = null;
  const reconciler = createReconciler({
    strapi,
    intervalMs: config.reconcileIntervalMs,
    settleMs: config.reconcileSettleMs,
    narratedTypes: async () =>
      Object.entries((await settings.get()).contentTypes)
        .filter(
          ([uid, narration]) => Boolean(narration.trigger) && narration.trigger !== 'off' && uid.startsWith('api::') && content.exists(uid)
        )
        .map(([uid]) => uid),
    isLocalized: content.isLocalized,
    record: (uid, documentId, locale) => service.recordFromDocument(uid, documentId, locale, { reconciling: true }),
    pending: getService('pending-recordings'),
  });

  const service = {
    /** Keeps a detached promise (an after-commit enqueue) so shutdown and tests can wait for it. */
    track<T>(promise: Promise<T>): Promise<T> {
      pending.add(promise);
      void promise.finally(() => pending.delete(promise));
      return promise;
    },
    async settled(): Promise<void> {
      while (pending.size) await Promise.allSettled([...pending]);
    },

    async triggerFor(uid: string): Promise<NarrationTrigger | null> {
      const narrated = (await settings.get()).contentTypes[uid];
      return narrated ? (narrated.trigger ?? null) : null;
    },

    /**
     * Reads the live version of a document and records it; no network, at most one write.
     * `reconciling`: only a version that was never recorded (see reconcile.ts), never a retry.
     */
    async recordFromDocument(
      uid: string,
      documentId: string,
      locale: string | null,
      { reconciling = false }: { reconciling?: boolean } = {}
    ): Promise<{ queued: boolean; reason?: string }> {
      const current = await settings.get();
      const narration = current.contentTypes[uid];
      if (!narration) return { queued: false, reason: 'this content type is not narrated' };
      const entry = await content.loadLive(uid, documentId, locale);
      if (!entry) return { queued: false, reason: 'the content is not published' };
      const override = await voiceOverrides.get(this.articleIdFor(uid, documentId, entry.locale ?? locale));
      const version = content.describe(uid, entry, narration, current, override);
      if (reconciling && !versionUnrecorded(await repository.findByArticleId(version.articleId), version.fingerprint)) {
        return { queued: false, reason: 'this version is already recorded' };
      }
      const outcome = await repository.recordContentVersion(version);
      if (outcome.applied) worker.wake();
      return outcome.applied ? { queued: true } : { queued: false, reason: outcome.reason };
    },

    /** The editor's "narrate now": same rules as a publish (unchanged content is not paid twice). */
    async narrateNow(uid: string, documentId: string, locale: string | null) {
      const result = await this.recordFromDocument(uid, documentId, locale);
      return { articleId: this.articleIdFor(uid, documentId, locale), ...result };
    },

    /**
     * The version the editor is looking at (the draft, for types with draft & publish), described
     * with the entry's voice override; null when the type is not narrated or the document is missing.
     */
    async draftVersion(uid: string, documentId: string, locale: string | null) {
      const current = await settings.get();
      const narration = current.contentTypes[uid];
      if (!narration || !content.exists(uid)) return null;
      const entry = await content.loadDraft(uid, documentId, locale);
      if (!entry) return null;
      const override = await voiceOverrides.get(this.articleIdFor(uid, documentId, locale));
      return { version: content.describe(uid, entry, narration, current, override), override };
    },

    /**
     * The paragraphs of a document's current (draft) text and the voice it would be read in, for
     * "listen to this paragraph" in the edit view. Null when the type is not narrated or the
     * document does not exist.
     */
    async paragraphs(uid: string, documentId: string, locale: string | null) {
      const draft = await this.draftVersion(uid, documentId, locale);
      if (!draft) return null;
      const { version } = draft;
      return {
        articleId: version.articleId,
        voiceId: version.voiceId,
        paragraphs: narrationParagraphs(version.text).map((text, index) => ({ index, text, characters: countCharacters(text) })),
      };
    },

    /** Estimates many documents at once (bulk action): what would be submitted, and its cost. */
    async estimateMany(uid: string, documentIds: string[], locale: string | null) {
      const items = [];
      for (const documentId of documentIds) {
        const estimate = await this.estimate(uid, documentId, locale);
        if (estimate) items.push({ documentId, ...estimate });
      }
      const toSubmit = items.filter((item) => !item.unchanged);
      return {
        items,
        toSubmit: toSubmit.length,
        skipped: items.length - toSubmit.length,
        totalCredits: toSubmit.reduce((sum, item) => sum + item.credits, 0),
        /** Documents that would be submitted in a voice the voice list gives another language. */
        voiceMismatches: toSubmit.filter((item) => item.voice.mismatch).length,
      };
    },

    async narrateMany(uid: string, documentIds: string[], locale: string | null) {
      const results = [];
      for (const documentId of documentIds) results.push(await this.narrateNow(uid, documentId, locale));
      return { results, queued: results.filter((result) => result.queued).length };
    },

    async setVoice(uid: string, documentId: string, locale: string | null, voiceId: string | null) {
      const articleId = this.articleIdFor(uid, documentId, locale);
      await voiceOverrides.set({ articleId, contentType: uid, documentId, locale: content.isLocalized(uid) ? locale : null }, voiceId);
      return { articleId, voiceId };
    },

    /** The editor's "regenerate": a fresh, paid generation of unchanged content. */
    async regenerate(uid: string, documentId: string, locale: string | null) {
      const articleId = this.articleIdFor(uid, documentId, locale);
      const row = await repository.findByArticleId(articleId);
      if (!row) return { articleId, ...(await this.recordFromDocument(uid, documentId, locale)) };
      const outcome = await repository.apply(row, { type: 'regenerateRequested', now: new Date() });
      if (outcome.applied) worker.wake();
      return { articleId, queued: outcome.applied, reason: outcome.applied ? undefined : outcome.reason };
    },

    async cancelDocument(uid: string, documentId: string, locale: string | null) {
      for (const row of await repository.findForDocument(uid, documentId)) {
        if (locale && row.targetLocale !== locale) continue;
        await repository.apply(row, { type: 'cancelled' });
      }
    },

    /** The document is gone: its narrations and their files go too. */
    async forgetDocument(uid: string, documentId: string, locale: string | null) {
      for (const row of await repository.findForDocument(uid, documentId)) {
        if (locale && row.targetLocale !== locale) continue;
        // The files linked when the row is deleted, not when it was read: a download may finish in between.
        await media.remove(await repository.removeWithMedia(row.id));
      }
      await voiceOverrides.removeForDocument(uid, documentId, content.isLocalized(uid) ? locale : null);
    },

    /** Verifies and records a callback; storing the files happens after the response. */
    async receiveCallback(input: CallbackInput): Promise<CallbackOutcome> {
      if (!config.apiKey || !verifyCallbackSignature(config.apiKey, input)) return { status: 'unauthorized' };
      const row = await repository.findByArticleId(input.articleId);
      if (!row) return { status: 'ignored', reason: 'no narration awaits this article' };
      const now = new Date();
      if (input.audioFile && input.srtFile) {
        const urls = { audioFile: input.audioFile, srtFile: input.srtFile };
        const outcome = await repository.apply(row, { type: 'callbackWithFiles', urls, now });
        if (outcome.applied) {
          worker.wake();
          return { status: 'accepted' };
        }
        const latest = await repository.findByArticleId(input.articleId);
        const known =
          latest?.pendingResult?.audioFile === urls.audioFile ||
          (latest?.seenResults ?? []).some((seen) => seen.audioFile === urls.audioFile && seen.srtFile === urls.srtFile);
        return { status: known ? 'duplicate' : 'ignored', reason: outcome.reason };
      }
      const outcome = await repository.apply(row, { type: 'callbackWithoutFiles', maxAttempts: config.maxAttempts, now });
      if (outcome.applied) worker.wake();
      return outcome.applied ? { status: 'failure-recorded' } : { status: 'ignored', reason: outcome.reason };
    },

    /**
     * A narration as a content-API caller may see it: only where that caller may read the
     * narrated type (or the type's `publicNarration` switch is on), and only for content that is
     * live (published, or saved for a type without draft & publish). Null otherwise.
     */
    async findVisible(articleId: string, auth: ContentApiAuth | null): Promise<NarrationRow | null> {
      const row = await repository.findByArticleId(articleId, true);
      if (!row || !(await this.isVisible(row, auth))) return null;
      return row;
    },

    /**
     * The narration of one entry a content-API caller has just read (REST `?narration=true`,
     * GraphQL's `narration` field), under the same rule as findVisible. A published entry is live
     * already; for a draft, the published version decides.
     */
    async findVisibleForEntry(
      uid: string,
      entry: { documentId: string; locale?: string | null; publishedAt?: string | null },
      auth: ContentApiAuth | null
    ): Promise<NarrationRow | null> {
      if (!(await settings.get()).contentTypes[uid]) return null;
      const row = await repository.findByArticleId(this.articleIdFor(uid, entry.documentId, entry.locale ?? null), true);
      if (!row || !(await this.isVisible(row, auth, { live: entry.publishedAt ? true : undefined }))) return null;
      return row;
    },

    async isVisible(
      row: Pick<NarrationRow, 'contentType' | 'targetDocumentId' | 'targetLocale'>,
      auth: ContentApiAuth | null,
      { live }: { live?: boolean } = {}
    ): Promise<boolean> {
      if (!row.contentType.startsWith('api::') || !content.exists(row.contentType)) return false;
      const narrated = (await settings.get()).contentTypes[row.contentType];
      if (!narrated?.publicNarration && !(await contentApi.mayRead(auth, row.contentType))) return false;
      return live ?? Boolean(await content.loadLive(row.contentType, row.targetDocumentId, row.targetLocale));
    },

    articleIdFor(uid: string, documentId: string, locale: string | null) {
      return articleKey(documentId, locale, content.isLocalized(uid));
    },

    /** Average narrated characters per content type (latest narrations), for the settings page's cost preview. */
    averageCharacters: () => repository.recentAverageCharacters(),

    /** The narrations of some documents of one type (a list page), every locale. */
    findForDocuments: (uid: string, documentIds: string[]) => repository.findForDocuments(uid, documentIds),

    /** The narrations of one document, every locale. */
    findForDocument: (uid: string, documentId: string) => repository.findForDocument(uid, documentId),

    /** Lifts a pause (credits, API key) and lets the worker submit again at once. */
    async resumeQueue() {
      const queue = await settings.updateQueueState({ paused: false, pausedUntil: null, pauseCode: null, pauseReason: null });
      worker.wake();
      return queue;
    },

    /** The queue at a glance, for the admin's status board. */
    async overview() {
      const connection = settings.connection();
      return {
        apiKeyConfigured: connection.apiKeyConfigured,
        baseUrl: connection.baseUrl,
        webUrl: connection.webUrl,
        callbackUrl: connection.callbackUrl,
        queue: await settings.queueState(),
        counts: await repository.countByStatus(),
        settings: await settings.get(),
      };
    },

    /**
     * What narrating a document's current text would cost, before anything is submitted. The
     * editor is looking at the draft, so that is the version estimated.
     */
    async estimate(uid: string, documentId: string, locale: string | null) {
      const draft = await this.draftVersion(uid, documentId, locale);
      if (!draft) return null;
      const { version, override } = draft;
      const row = await repository.findByArticleId(version.articleId);
      return {
        articleId: version.articleId,
        characters: version.characters,
        credits: version.credits,
        preprocessType: version.preprocessType,
        voiceId: version.voiceId,
        voiceOverride: override,
        /** The voice's language, and whether it differs from the article's locale (said before anything is paid). */
        voice: await voices.check(version.voiceId, version.locale),
        unchanged: Boolean(row && row.narratedFingerprint === version.fingerprint),
      };
    },

    /**
     * One page of a type's published documents (in `locale`) whose narration the current lexicon
     * would change, and what narrating them again would cost: the text with the lexicon differs
     * from the text without it, and its fingerprint from the one last narrated. Nothing is
     * submitted; `readable` keeps the documents the caller may read.
     */
    async lexiconAffected(
      uid: string,
      locale: string | null,
      { page, pageSize }: { page: number; pageSize: number },
      readable: (documentIds: string[]) => Promise<Set<string>>
    ) {
      const current = await settings.get();
      const narration = current.contentTypes[uid];
      if (!narration || !content.exists(uid)) return null;
      const { entries, total } = await content.livePage(uid, locale, { start: (page - 1) * pageSize, limit: pageSize });
      const allowed = await readable(entries.map((entry) => entry.documentId));
      const rows = await repository.findForDocuments(uid, [...allowed]);
      const narrated = new Map(rows.map((row) => [row.articleId, row.narratedFingerprint]));
      const overrides = await voiceOverrides.getMany([...narrated.keys()]);
      const withoutLexicon = { ...current, lexicon: [] };
      const items = [];
      for (const entry of entries.filter((candidate) => allowed.has(candidate.documentId))) {
        const articleId = this.articleIdFor(uid, entry.documentId, entry.locale ?? locale);
        const lastNarrated = narrated.get(articleId);
        if (!lastNarrated) continue;
        const override = overrides.get(articleId) ?? null;
        const version = content.describe(uid, entry, narration, current, override);
        if (version.fingerprint === lastNarrated) continue;
        if (version.text === content.describe(uid, entry, narration, withoutLexicon, override).text) continue;
        items.push({
          documentId: entry.documentId,
          locale: version.locale,
          articleId,
          title: version.title,
          characters: version.characters,
          credits: version.credits,
        });
      }
      return {
        items,
        totalCredits: items.reduce((sum, item) => sum + item.credits, 0),
        page,
        pageSize,
        pageCount: Math.ceil(total / pageSize),
        total,
        refused: entries.length - allowed.size,
      };
    },

    async start() {
      const moved = await voiceOverrides.migrateLegacyStore();
      if (moved) strapi.log.info(`[speech] moved ${moved} voice override(s) from the plugin store to their own table`);
      if (config.worker) {
        worker.start();
        reconciler.start();
      }
    },
    /** One reconciliation pass now (tests; the timer runs them otherwise). */
    reconcile: () => reconciler.runOnce(),
    /** Idempotent: a second call waits for the first shutdown instead of racing it. */
    stop() {
      stopping ??= (async () => {
        await reconciler.stop();
        await worker.stop();
        await this.settled();
      })();
      return stopping;
    },
  };
  return service;
}

export type NarrationsService = ReturnType<typeof createNarrationsService>;
