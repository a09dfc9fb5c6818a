import type { LexiconAffectedResponse } from '../../../shared/contracts/lexicon';
import type { ContentReader } from './content';
import type { VoiceOverrides } from './voice-overrides';
import type { Queue } from '../queue';
import type { SettingsService } from '../settings';

export interface LexiconAffectedDeps {
  settings: SettingsService;
  rows: Queue['reads'];
  content: ContentReader;
  voiceOverrides: VoiceOverrides;
}

export function createLexiconAffected({ settings, rows: repository, content, voiceOverrides }: LexiconAffectedDeps) {
  return {
    /** The text with the lexicon differs from the text without it, and its fingerprint from the one last narrated. */
    async affected(
      uid: string,
      locale: string | null,
      { page, pageSize }: { page: number; pageSize: number },
      readable: (documentIds: string[]) => Promise<Set<string>>
    ): Promise<LexiconAffectedResponse | null> {
      const current = await settings.get();
      const typeSettings = current.contentTypes[uid];
      if (!typeSettings || !content.exists(uid)) return null;
      const { entries, total } = await content.livePage(uid, locale, { start: (page - 1) * pageSize, limit: pageSize });
      const allowed = await readable(entries.map((entry) => entry.documentId));
      const rows = await repository.findForDocuments(uid, [...allowed]);
      const narrated = new Map(rows.map((row) => [row.articleId, row.narratedFingerprint]));
      const overrides = await voiceOverrides.getMany([...narrated.keys()]);
      const withoutLexicon = { ...current, lexicon: [] };
      // Only its text is compared: no passage's language need be told for it.
      const textOnly = { ...typeSettings, passageVoices: false };
      const items = [];
      for (const entry of entries.filter((candidate) => allowed.has(candidate.documentId))) {
        const articleId = content.articleIdFor(uid, entry.documentId, entry.locale ?? locale);
        const lastNarrated = narrated.get(articleId);
        if (!lastNarrated) continue;
        const override = overrides.get(articleId) ?? null;
        const version = content.describe(uid, entry, typeSettings, current, { voiceId: override });
        if (version.fingerprint === lastNarrated) continue;
        if (version.text === content.describe(uid, entry, textOnly, withoutLexicon, { voiceId: override }).text) continue;
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
  };
}
