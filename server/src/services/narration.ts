import type { Core } from '@strapi/strapi';
import { parsePluginConfig, type NarrationTrigger, type PluginConfig } from '../config/schema';
import { articleKey } from '../narration/article';
import { createContentReader } from '../narration/content';
import { countCharacters } from '../narration/cost';
import { narrationParagraphs } from '../narration/text';
import { createJobsRepository, type NarrationRow } from '../narration/jobs.repository';
import { createMediaStore } from '../narration/media';
import { createWorker, type NarrationWorker } from '../narration/worker';
import { createSpeechClient, verifyCallbackSignature, type SpeechClient, type Voice } from '../speech-client';
import { createSettingsService } from './settings';
import { createContentApiAccess, type ContentApiAuth } from '../access/content-api-access';

/**
 * The narration feature as the rest of Strapi sees it: the document middleware, the controllers
 * and the admin call this service; it wires the repository, the worker and the speech client.
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

/** The site's public origin (`server.url`), never a request's Host header. */
export function publicUrl(strapi: Core.Strapi): string {
  const configured = (strapi.config.get('server.absoluteUrl') as string | undefined) || (strapi.config.get('server.url') as string | undefined);
  return (configured || `http://localhost:${strapi.config.get('server.port')}`).replace(/\/+$/, '');
}

export function readPluginConfig(strapi: Core.Strapi): PluginConfig {
  return parsePluginConfig(strapi.config.get('plugin::speech'));
}

export function createNarrationService({ strapi }: { strapi: Core.Strapi }) {
  const config = readPluginConfig(strapi);
  const repository = createJobsRepository(strapi);
  const settings = createSettingsService(strapi, config);
  const content = createContentReader(strapi);
  const media = createMediaStore(strapi, config);
  const contentApi = createContentApiAccess(strapi);
  const pending = new Set<Promise<unknown>>();
  let client: SpeechClient | null = null;
  let voiceCache: { voices: Voice[]; at: number } | null = null;
  let stopping: Promise<void> | null = null;

  const speechClient = () =>
    (client ??= createSpeechClient({
      apiKey: config.apiKey,
      baseUrl: config.baseUrl,
      webUrl: config.webUrl,
      timeoutMs: config.requestTimeoutMs,
      voicesPath: config.voicesPath,
    }));

  const callbackUrl = () => config.callbackUrl || `${publicUrl(strapi)}/api/speech/callback`;

  const worker: NarrationWorker = createWorker({ strapi, config, repository, settings, content, client: speechClient, media, callbackUrl });

  return {
    config,
    settings,
    repository,
    content,
    worker,
    speechClient,
    callbackUrl,

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

    /** Reads the live version of a document and records it; no network, at most one write. */
    async recordFromDocument(uid: string, documentId: string, locale: string | null): Promise<{ queued: boolean; reason?: string }> {
      const current = await settings.get();
      const narration = current.contentTypes[uid];
      if (!narration) return { queued: false, reason: 'this content type is not narrated' };
      const entry = await content.loadLive(uid, documentId, locale);
      if (!entry) return { queued: false, reason: 'the content is not published' };
      const override = await settings.voiceOverride(this.articleIdFor(uid, documentId, entry.locale ?? locale));
      const version = content.describe(uid, entry, narration, current, override);
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
      const params: Record<string, unknown> = { documentId };
      if (locale && content.isLocalized(uid)) params.locale = locale;
      if (content.hasDraftAndPublish(uid)) params.status = 'draft';
      const entry = (await strapi.documents(uid as never).findOne(params as never)) as never;
      if (!entry) return null;
      const override = await settings.voiceOverride(this.articleIdFor(uid, documentId, locale));
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
      return { items, toSubmit: toSubmit.length, skipped: items.length - toSubmit.length, totalCredits: toSubmit.reduce((sum, item) => sum + item.credits, 0) };
    },

    async narrateMany(uid: string, documentIds: string[], locale: string | null) {
      const results = [];
      for (const documentId of documentIds) results.push(await this.narrateNow(uid, documentId, locale));
      return { results, queued: results.filter((result) => result.queued).length };
    },

    async setVoice(uid: string, documentId: string, locale: string | null, voiceId: string | null) {
      const articleId = this.articleIdFor(uid, documentId, locale);
      await settings.setVoiceOverride({ articleId, contentType: uid, documentId, locale: content.isLocalized(uid) ? locale : null }, voiceId);
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
      await settings.voiceOverrides.removeForDocument(uid, documentId, content.isLocalized(uid) ? locale : null);
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
        const known = latest?.pendingResult?.audioFile === urls.audioFile || (latest?.seenResults ?? []).some((seen) => seen.audioFile === urls.audioFile && seen.srtFile === urls.srtFile);
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

    async isVisible(row: Pick<NarrationRow, 'contentType' | 'targetDocumentId' | 'targetLocale'>, auth: ContentApiAuth | null, { live }: { live?: boolean } = {}): Promise<boolean> {
      if (!row.contentType.startsWith('api::') || !content.exists(row.contentType)) return false;
      const narrated = (await settings.get()).contentTypes[row.contentType];
      if (!narrated?.publicNarration && !(await contentApi.mayRead(auth, row.contentType))) return false;
      return live ?? Boolean(await content.loadLive(row.contentType, row.targetDocumentId, row.targetLocale));
    },

    publicUrl: () => publicUrl(strapi),

    articleIdFor(uid: string, documentId: string, locale: string | null) {
      return articleKey(documentId, locale, content.isLocalized(uid));
    },

    /** Voices from the configured source; the service's list is cached for ten minutes. */
    async voices({ fresh = false } = {}): Promise<Voice[]> {
      if (config.voiceSource === 'config') return config.voices;
      if (!fresh && voiceCache && Date.now() - voiceCache.at < 10 * 60_000) return voiceCache.voices;
      const voices = await speechClient().listVoices();
      voiceCache = { voices, at: Date.now() };
      return voices;
    },

    /** Average narrated characters per content type (latest narrations), for the settings page's cost preview. */
    averageCharacters: () => repository.recentAverageCharacters(),

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
        unchanged: Boolean(row && row.narratedFingerprint === version.fingerprint),
      };
    },

    async start() {
      const moved = await settings.voiceOverrides.migrateLegacyStore();
      if (moved) strapi.log.info(`[speech] moved ${moved} voice override(s) from the plugin store to their own table`);
      if (config.worker) worker.start();
    },
    /** Idempotent: a second call waits for the first shutdown instead of racing it. */
    stop() {
      stopping ??= (async () => {
        await worker.stop();
        await this.settled();
      })();
      return stopping;
    },
  };
}

export type NarrationService = ReturnType<typeof createNarrationService>;
