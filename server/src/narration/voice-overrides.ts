import type { Core } from '@strapi/strapi';
import { VOICE_OVERRIDE_UID } from '../content-types';
import { createPassageVoices } from '../passages';

/** One row per article (a unique index), so two editors choosing voices for two articles never overwrite each other. */

export interface VoiceChoices {
  voiceId?: string | null;
  passages?: Readonly<Record<string, string>>;
}

export interface VoiceOverrideTarget {
  articleId: string;
  /** Null only for an override migrated from the plugin store whose article had no row to name its type. */
  contentType: string | null;
  documentId: string;
  locale: string | null;
}

const LEGACY_STORE_KEY = 'voiceOverrides';

export function createVoiceOverrides(strapi: Core.Strapi) {
  const query = () => strapi.db.query(VOICE_OVERRIDE_UID);
  const passageVoices = createPassageVoices(strapi);

  async function get(articleId: string): Promise<string | null> {
    const row = (await query().findOne({ where: { articleId }, select: ['voiceId'] })) as { voiceId: string } | null;
    return row?.voiceId ?? null;
  }

  async function getMany(articleIds: string[]): Promise<Map<string, string>> {
    if (articleIds.length === 0) return new Map();
    const rows = (await query().findMany({ where: { articleId: { $in: articleIds } }, select: ['articleId', 'voiceId'] })) as Array<{
      articleId: string;
      voiceId: string;
    }>;
    return new Map(rows.map((row) => [row.articleId, row.voiceId]));
  }

  async function set(target: VoiceOverrideTarget, voiceId: string | null): Promise<void> {
    if (!voiceId) {
      await query().deleteMany({ where: { articleId: target.articleId } });
      return;
    }
    // Update the article's own row; only when there is none, insert it. Two first choices for one
    // article at once: the unique index lets one insert win and the other updates it (last wins).
    const { count } = await query().updateMany({ where: { articleId: target.articleId }, data: { voiceId } });
    if (count > 0) return;
    try {
      await query().create({
        data: {
          articleId: target.articleId,
          voiceId,
          contentType: target.contentType,
          targetDocumentId: target.documentId,
          targetLocale: target.locale,
        },
      });
    } catch (error) {
      const retried = await query().updateMany({ where: { articleId: target.articleId }, data: { voiceId } });
      if (retried.count === 0) throw error;
    }
  }

  const { choices, choicesMany } = choiceReads(get, getMany, passageVoices);

  async function removeForDocument(contentType: string, documentId: string, locale: string | null): Promise<void> {
    const where: Record<string, unknown> = { targetDocumentId: documentId, $or: [{ contentType }, { contentType: null }] };
    if (locale) where.targetLocale = locale;
    await query().deleteMany({ where });
    await passageVoices.removeForDocument(contentType, documentId, locale);
  }

  /** Once; the articleId is `documentId` or `documentId-locale` (documentIds have no dash). */
  async function migrateLegacyStore(): Promise<number> {
    const store = strapi.store({ type: 'plugin', name: 'speech' });
    const legacy = (await store.get({ key: LEGACY_STORE_KEY })) as Record<string, string> | null;
    if (!legacy || typeof legacy !== 'object') return 0;
    let moved = 0;
    for (const [articleId, voiceId] of Object.entries(legacy)) {
      if (typeof voiceId !== 'string' || !voiceId) continue;
      const [documentId, ...rest] = articleId.split('-');
      const narration = (await strapi.db.query('plugin::speech.narration').findOne({ where: { articleId }, select: ['contentType'] })) as {
        contentType: string;
      } | null;
      if (await get(articleId)) continue;
      await set(
        { articleId, documentId, locale: rest.length ? rest.join('-') : null, contentType: narration?.contentType ?? null },
        voiceId
      );
      moved += 1;
    }
    await store.delete({ key: LEGACY_STORE_KEY });
    return moved;
  }

  return {
    get,
    getMany,
    set,
    choices,
    choicesMany,
    setPassage: passageVoices.set,
    removePassages: passageVoices.removePassages,
    removeForDocument,
    migrateLegacyStore,
  };
}

export type VoiceOverrides = ReturnType<typeof createVoiceOverrides>;

/** An article's voice and its passages' voices, as a describe reads them: one article, or a page of them. */
function choiceReads(
  get: (articleId: string) => Promise<string | null>,
  getMany: (articleIds: string[]) => Promise<Map<string, string>>,
  passageVoices: ReturnType<typeof createPassageVoices>
) {
  async function choices(articleId: string): Promise<VoiceChoices> {
    const [voiceId, passages] = await Promise.all([get(articleId), passageVoices.forArticle(articleId)]);
    return { voiceId, passages };
  }

  /** The choices of many articles in two reads (a backfill's page). */
  async function choicesMany(articleIds: string[]): Promise<Map<string, VoiceChoices>> {
    const [voices, passages] = await Promise.all([getMany(articleIds), passageVoices.forArticles(articleIds)]);
    return new Map(
      articleIds.map((articleId) => [articleId, { voiceId: voices.get(articleId) ?? null, passages: passages.get(articleId) ?? {} }])
    );
  }

  return { choices, choicesMany };
}
