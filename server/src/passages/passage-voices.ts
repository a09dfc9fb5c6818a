import type { Core } from '@strapi/strapi';
import { PASSAGE_VOICE_UID } from '../content-types';

/**
 * The voices editors chose for passages of an article, beside the article's own voice override
 * (narration/voice-overrides.ts): one row per article and passage (a unique index on both), kept by
 * a hash of the passage's text, so a choice survives edits elsewhere and a republish, and two
 * editors choosing voices for two passages at once never overwrite each other.
 */

export interface PassageVoiceTarget {
  articleId: string;
  contentType: string;
  documentId: string;
  locale: string | null;
}

export function createPassageVoices(strapi: Core.Strapi) {
  const query = () => strapi.db.query(PASSAGE_VOICE_UID);

  /** An article's chosen voices, by passage key. */
  async function forArticle(articleId: string): Promise<Record<string, string>> {
    const rows = (await query().findMany({ where: { articleId }, select: ['passageKey', 'voiceId'] })) as Array<{
      passageKey: string;
      voiceId: string;
    }>;
    return Object.fromEntries(rows.map((row) => [row.passageKey, row.voiceId]));
  }

  /** The chosen voices of many articles in one read, by article and passage key. */
  async function forArticles(articleIds: readonly string[]): Promise<Map<string, Record<string, string>>> {
    const byArticle = new Map<string, Record<string, string>>(articleIds.map((articleId) => [articleId, {}]));
    if (articleIds.length === 0) return byArticle;
    const rows = (await query().findMany({
      where: { articleId: { $in: [...articleIds] } },
      select: ['articleId', 'passageKey', 'voiceId'],
    })) as Array<{ articleId: string; passageKey: string; voiceId: string }>;
    // Exact ids only: MySQL's collations compare case-insensitively.
    for (const row of rows) {
      const passages = byArticle.get(row.articleId);
      if (passages) passages[row.passageKey] = row.voiceId;
    }
    return byArticle;
  }

  /** Chooses a passage's voice; null gives it back to the rules. */
  async function set(target: PassageVoiceTarget, passageKey: string, voiceId: string | null): Promise<void> {
    const where = { articleId: target.articleId, passageKey };
    if (!voiceId) {
      await query().deleteMany({ where });
      return;
    }
    const { count } = await query().updateMany({ where, data: { voiceId } });
    if (count > 0) return;
    try {
      await query().create({
        data: { ...where, voiceId, contentType: target.contentType, targetDocumentId: target.documentId, targetLocale: target.locale },
      });
    } catch (error) {
      // Two first choices at once: the unique index lets one insert win, and the other updates it.
      const retried = await query().updateMany({ where, data: { voiceId } });
      if (retried.count === 0) throw error;
    }
  }

  /** The document is gone (or one of its locales): its choices go too. */
  async function removeForDocument(contentType: string, documentId: string, locale: string | null): Promise<void> {
    await query().deleteMany({ where: { contentType, targetDocumentId: documentId, ...(locale ? { targetLocale: locale } : {}) } });
  }

  /** These passages of an article are gone from its text: their choices go. */
  async function removePassages(articleId: string, passageKeys: readonly string[]): Promise<void> {
    if (passageKeys.length) await query().deleteMany({ where: { articleId, passageKey: { $in: [...passageKeys] } } });
  }

  return { forArticle, forArticles, set, removeForDocument, removePassages };
}

export type PassageVoices = ReturnType<typeof createPassageVoices>;
