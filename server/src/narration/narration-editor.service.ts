import { countCharacters } from './domain/cost';
import { versionCosts } from './domain/estimate';
import {
  partsAtHand,
  partsProgress,
  type NarrationRow,
  type NarrationRows,
  type NarrationWorker,
  type PartRows,
  type QueueStateStore,
} from '../queue';
import { narrationParagraphs } from '../text';
import type * as Contract from '../../../shared/contracts/narrations';
import { errors } from '@strapi/utils';
import type { PassagesResponse, SetPassageVoiceResponse } from '../../../shared/contracts/passages';
import { passagesView } from './domain/passages-view';
import type { Origin } from '../credits';
import type { SettingsService } from '../settings';
import { ensureVoicesListed, type VoicesService } from '../voices';
import type { ContentReader } from './content';
import type { NarrationsService } from './narrations.service';
import type { VoiceOverrides } from './voice-overrides';

export interface NarrationEditorDeps {
  settings: SettingsService;
  queueState: QueueStateStore;
  rows: NarrationRows;
  parts: PartRows;
  content: ContentReader;
  voiceOverrides: VoiceOverrides;
  worker: NarrationWorker;
  voices: VoicesService;
  narrations: NarrationsService;
}

export function createNarrationEditorService({
  settings,
  queueState,
  rows: repository,
  parts,
  content,
  voiceOverrides,
  worker,
  voices,
  narrations,
}: NarrationEditorDeps) {
  const service = {
    /** Same rules as a publish: unchanged content is not paid twice. */
    async narrateNow(uid: string, documentId: string, locale: string | null, origin: Origin): Promise<Contract.NarrateResponse> {
      const result = await narrations.recordFromDocument(uid, documentId, locale, { origin });
      return { articleId: content.articleIdFor(uid, documentId, locale), ...result };
    },

    async narrateMany(
      uid: string,
      documentIds: string[],
      locale: string | null,
      origin: Origin
    ): Promise<Omit<Contract.NarrateManyResponse, 'refused'>> {
      const results = [];
      for (const documentId of documentIds) results.push(await service.narrateNow(uid, documentId, locale, origin));
      return { results, queued: results.filter((result) => result.queued).length };
    },

    async regenerate(uid: string, documentId: string, locale: string | null, origin: Origin): Promise<Contract.RegenerateResponse> {
      const articleId = content.articleIdFor(uid, documentId, locale);
      const row = await repository.findByArticleId(articleId);
      if (!row) return { articleId, ...(await narrations.recordFromDocument(uid, documentId, locale, { origin })) };
      // Named first: the worker may take the row as soon as the regenerate is written.
      await repository.setOrigin(row.id, origin);
      const outcome = await repository.apply(row, { type: 'regenerateRequested', now: new Date() });
      if (outcome.applied) worker.wake();
      return { articleId, queued: outcome.applied, reason: outcome.applied ? undefined : outcome.reason };
    },

    /** A paid take of some parts (a verification's mismatch); the other parts are read back from the stored audio. */
    async regenerateParts(narration: NarrationRow, keys: readonly string[], origin: Origin): Promise<{ queued: boolean; reason?: string }> {
      const stored = new Set((narration.segments ?? []).map((part) => part.key));
      const fresh = [...new Set(keys)].filter((key) => stored.has(key));
      if (fresh.length === 0) return { queued: false, reason: 'none of these parts is in the stored audio' };
      await repository.setOrigin(narration.id, origin);
      const outcome = await repository.apply(narration, { type: 'partsRegenerateRequested', keys: fresh, now: new Date() });
      if (outcome.applied) worker.wake();
      return outcome.applied ? { queued: true } : { queued: false, reason: outcome.reason };
    },

    async passages(uid: string, documentId: string, locale: string | null): Promise<PassagesResponse | null> {
      const draft = await service.draftVersion(uid, documentId, locale);
      if (!draft) return null;
      const { version } = draft;
      return {
        articleId: version.articleId,
        voiceId: version.voiceId,
        passageVoices: version.passages !== null,
        ...passagesView(version.passages ?? []),
      };
    },

    /** Null gives it back to the rules; narrated at the next publish. */
    async setPassageVoice(
      uid: string,
      documentId: string,
      locale: string | null,
      passageKey: string,
      voiceId: string | null
    ): Promise<SetPassageVoiceResponse> {
      const draft = await service.passages(uid, documentId, locale);
      if (!draft) throw new errors.NotFoundError('This content is not narrated or does not exist.');
      if (!draft.passageVoices) throw new errors.ValidationError('This content type does not read passages in voices of their own.');
      if (voiceId !== null) {
        if (!draft.passages.some((passage) => passage.key === passageKey))
          throw new errors.ValidationError(`passageKey: "${passageKey}" is not a passage of this document.`);
        await ensureVoicesListed(voices, [{ path: ['voiceId'], voiceId }]);
      }
      const articleId = draft.articleId;
      await voiceOverrides.setPassage(
        { articleId, contentType: uid, documentId, locale: content.isLocalized(uid) ? locale : null },
        passageKey,
        voiceId
      );
      return { articleId, passageKey, voiceId };
    },

    async setVoice(uid: string, documentId: string, locale: string | null, voiceId: string | null): Promise<Contract.SetVoiceResponse> {
      if (voiceId !== null) await ensureVoicesListed(voices, [{ path: ['voiceId'], voiceId }]);
      const articleId = content.articleIdFor(uid, documentId, locale);
      await voiceOverrides.set({ articleId, contentType: uid, documentId, locale: content.isLocalized(uid) ? locale : null }, voiceId);
      return { articleId, voiceId };
    },

    async draftVersion(uid: string, documentId: string, locale: string | null) {
      const current = await settings.get();
      const typeSettings = current.contentTypes[uid];
      if (!typeSettings || !content.exists(uid)) return null;
      const entry = await content.loadDraft(uid, documentId, locale);
      if (!entry) return null;
      const choices = await voiceOverrides.choices(content.articleIdFor(uid, documentId, locale));
      return {
        version: content.describe(uid, entry, typeSettings, current, choices),
        override: choices.voiceId ?? null,
      };
    },

    async paragraphs(uid: string, documentId: string, locale: string | null): Promise<Contract.ParagraphsResponse | null> {
      const draft = await service.draftVersion(uid, documentId, locale);
      if (!draft) return null;
      const { version } = draft;
      return {
        articleId: version.articleId,
        voiceId: version.voiceId,
        paragraphs: narrationParagraphs(version.text).map((text, index) => ({ index, text, characters: countCharacters(text) })),
      };
    },

    /** The editor is looking at the draft, so that is the version estimated. */
    async estimate(uid: string, documentId: string, locale: string | null): Promise<Contract.EstimateResponse | null> {
      const draft = await service.draftVersion(uid, documentId, locale);
      if (!draft) return null;
      const { version, override } = draft;
      const row = await repository.findByArticleId(version.articleId);
      const costs = versionCosts(version, row, row && version.mode === 'segmented' ? await parts.forNarration(row.id) : []);
      return {
        articleId: version.articleId,
        title: version.title,
        characters: costs.characters,
        credits: costs.credits,
        preprocessType: version.preprocessType,
        voiceId: version.voiceId,
        voiceOverride: override,
        /** Said before anything is paid. */
        voice: await voices.check(version.voiceId, version.locale),
        unchanged: Boolean(row && row.narratedFingerprint === version.fingerprint),
        parts: costs.parts,
        regeneration: costs.regeneration,
        requestsByVoice: costs.requestsByVoice,
      };
    },

    async estimateMany(uid: string, documentIds: string[], locale: string | null): Promise<Omit<Contract.EstimateManyResponse, 'refused'>> {
      const items = [];
      for (const documentId of documentIds) {
        const estimate = await service.estimate(uid, documentId, locale);
        if (estimate) items.push({ documentId, ...estimate });
      }
      const toSubmit = items.filter((item) => !item.unchanged);
      return {
        items,
        toSubmit: toSubmit.length,
        skipped: items.length - toSubmit.length,
        totalCredits: toSubmit.reduce((sum, item) => sum + item.credits, 0),
        voiceMismatches: toSubmit.filter((item) => item.voice.mismatch).length,
      };
    },

    averageCharacters: () => repository.recentAverageCharacters(),

    findForDocuments: (uid: string, documentIds: string[]) => repository.findForDocuments(uid, documentIds),

    async findForDocument(uid: string, documentId: string) {
      const rows = await repository.findForDocument(uid, documentId);
      return Promise.all(
        rows.map(async (row) => {
          if (row.narrationMode !== 'segmented' || !row.segmentPlan) return row;
          const progress = partsProgress(row.segmentPlan ?? [], partsAtHand(row), await parts.forNarration(row.id));
          return { ...row, parts: { total: progress.total, ready: progress.ready } };
        })
      );
    },

    async resumeQueue() {
      const queue = await queueState.update({ paused: false, pausedUntil: null, pauseCode: null, pauseReason: null });
      worker.wake();
      return queue;
    },

    async overview(): Promise<Contract.OverviewResponse> {
      const connection = settings.connection();
      return {
        apiKeyConfigured: connection.apiKeyConfigured,
        baseUrl: connection.baseUrl,
        webUrl: connection.webUrl,
        callbackUrl: connection.callbackUrl,
        queue: await queueState.read(),
        counts: await repository.countByStatus(),
        settings: await settings.get(),
      };
    },
  };
  return service;
}
