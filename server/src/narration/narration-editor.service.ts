import { countCharacters } from './domain/cost';
import { versionCosts } from './domain/estimate';
import type { NarrationRow, Queue } from '../queue';
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
  queue: Queue;
  content: ContentReader;
  voiceOverrides: VoiceOverrides;
  voices: VoicesService;
  narrations: NarrationsService;
}

/** Narrate now, one or many, and regenerate: the editor's paid actions, under a publish's rules. */
function createActions({ queue, content, narrations }: NarrationEditorDeps) {
  const actions = {
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
      for (const documentId of documentIds) results.push(await actions.narrateNow(uid, documentId, locale, origin));
      return { results, queued: results.filter((result) => result.queued).length };
    },

    async regenerate(uid: string, documentId: string, locale: string | null, origin: Origin): Promise<Contract.RegenerateResponse> {
      const articleId = content.articleIdFor(uid, documentId, locale);
      const row = await queue.reads.findByArticleId(articleId);
      if (!row) return { articleId, ...(await narrations.recordFromDocument(uid, documentId, locale, { origin })) };
      const { queued, reason } = await queue.regenerate(row, origin);
      return { articleId, queued, reason };
    },

    /** A paid take of some parts (a verification's mismatch); the other parts are read back from the stored audio. */
    async regenerateParts(narration: NarrationRow, keys: readonly string[], origin: Origin): Promise<{ queued: boolean; reason?: string }> {
      const stored = new Set((narration.segments ?? []).map((part) => part.key));
      const fresh = [...new Set(keys)].filter((key) => stored.has(key));
      if (fresh.length === 0) return { queued: false, reason: 'none of these parts is in the stored audio' };
      return queue.regenerateParts(narration, fresh, origin);
    },
  };
  return actions;
}

/** The draft an editor is looking at, as it would be narrated, and what narrating it would cost. */
function createDrafts({ settings, queue, content, voiceOverrides, voices }: NarrationEditorDeps) {
  const drafts = {
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
      const draft = await drafts.draftVersion(uid, documentId, locale);
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
      const draft = await drafts.draftVersion(uid, documentId, locale);
      if (!draft) return null;
      const { version, override } = draft;
      const row = await queue.reads.findByArticleId(version.articleId);
      const costs = versionCosts(version, row, row && version.mode === 'segmented' ? await queue.partsOf(row.id) : []);
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
        const estimate = await drafts.estimate(uid, documentId, locale);
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
  };
  return drafts;
}

/** The voice an editor chose for an article, or for one of its passages. */
function createVoiceChoices({ content, voiceOverrides, voices }: NarrationEditorDeps, drafts: Drafts) {
  const choices = {
    async passages(uid: string, documentId: string, locale: string | null): Promise<PassagesResponse | null> {
      const draft = await drafts.draftVersion(uid, documentId, locale);
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
      const draft = await choices.passages(uid, documentId, locale);
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
  };
  return choices;
}

/** What the editor's screens read of the queue. */
function createQueueViews({ settings, queue }: NarrationEditorDeps) {
  return {
    averageCharacters: () => queue.reads.recentAverageCharacters(),

    findForDocuments: (uid: string, documentIds: string[]) => queue.reads.findForDocuments(uid, documentIds),

    findForDocument: (uid: string, documentId: string) => queue.forDocument(uid, documentId),

    resumeQueue: () => queue.resume(),

    async overview(): Promise<Contract.OverviewResponse> {
      const connection = settings.connection();
      return {
        apiKeyConfigured: connection.apiKeyConfigured,
        baseUrl: connection.baseUrl,
        webUrl: connection.webUrl,
        callbackUrl: connection.callbackUrl,
        queue: await queue.readState(),
        counts: await queue.reads.countByStatus(),
        settings: await settings.get(),
      };
    },
  };
}

type Drafts = ReturnType<typeof createDrafts>;

export function createNarrationEditorService(deps: NarrationEditorDeps) {
  const drafts = createDrafts(deps);
  return { ...createActions(deps), ...drafts, ...createVoiceChoices(deps, drafts), ...createQueueViews(deps) };
}
