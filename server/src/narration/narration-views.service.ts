import type { ContentApiAccess, ContentApiAuth } from '../access';
import type { NarrationRow, Queue } from '../queue';
import type { SettingsService } from '../settings';
import type { ContentReader } from './content';

/** Only where the caller may read the type (or `publicNarration` is on), and only for live content. */
export interface PublicViewsDeps {
  settings: SettingsService;
  rows: Queue['reads'];
  content: ContentReader;
  contentApi: ContentApiAccess;
}

export function createNarrationViews({ settings, rows: repository, content, contentApi }: PublicViewsDeps) {
  const service = {
    async findVisible(articleId: string, auth: ContentApiAuth | null): Promise<NarrationRow | null> {
      const row = await repository.findByArticleId(articleId, true);
      if (!row || !(await service.isVisible(row, auth))) return null;
      return row;
    },

    /** A published entry is live already; for a draft, the published version decides. */
    async findVisibleForEntry(
      uid: string,
      entry: { documentId: string; locale?: string | null; publishedAt?: string | null },
      auth: ContentApiAuth | null
    ): Promise<NarrationRow | null> {
      if (!(await settings.get()).contentTypes[uid]) return null;
      const row = await repository.findByArticleId(content.articleIdFor(uid, entry.documentId, entry.locale ?? null), true);
      if (!row || !(await service.isVisible(row, auth, { live: entry.publishedAt ? true : undefined }))) return null;
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
  };
  return service;
}

export type NarrationViews = ReturnType<typeof createNarrationViews>;
