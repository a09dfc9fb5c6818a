import type { ContentApiAccess, ContentApiAuth } from '../access';
import type { NarrationRow, Queue } from '../queue';
import type { SettingsService } from '../settings';
import type { ContentReader } from './content';
import { narrationJson } from './domain/public-view';
import { frontEndUrl, matchFrontEndUrl, placeholdersOf } from './domain/front-end-url';

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
import { aiLabelFor, type AiLabels } from './domain/ai-label';

/** Only where the caller may read the type (or `publicNarration` is on), and only for live content. */
export interface PublicViewsDeps {
  settings: SettingsService;
  rows: Queue['reads'];
  content: ContentReader;
  contentApi: ContentApiAccess;
  aiLabels: AiLabels;
}

export function createNarrationViews({ settings, rows: repository, content, contentApi, aiLabels }: PublicViewsDeps) {
  const service = {
    /** The public narration JSON, as the routes, REST and GraphQL answer it; `entry`: its live entry, when the caller has it. */
    async json(row: NarrationRow, entry?: Record<string, unknown>) {
      const template = (await settings.get()).contentTypes[row.contentType]?.url;
      let pageUrl: string | null = null;
      if (template) {
        const fields = placeholdersOf(template).filter((field) => field !== 'locale');
        const live =
          entry && fields.every((field) => field in entry)
            ? entry
            : (await content.liveEntries(row.contentType, [row.targetDocumentId], row.targetLocale, fields)).values().next().value;
        pageUrl = live ? frontEndUrl(template, live, row.targetLocale) : null;
      }
      return narrationJson(row, settings.contentApiUrl(), { aiLabel: aiLabelFor(aiLabels, row.targetLocale), pageUrl });
    },

    async findVisible(articleId: string, auth: ContentApiAuth | null): Promise<NarrationRow | null> {
      const row = await repository.findByArticleId(articleId, true);
      if (!row || !(await service.isVisible(row, auth))) return null;
      return row;
    },

    /**
     * The narration a URL names: a narration or embed route of this site, or an entry's page by its
     * type's `url` template. Null unless the caller may read it, as the JSON route answers.
     */
    async findVisibleByUrl(url: string, auth: ContentApiAuth | null): Promise<NarrationRow | null> {
      const own = new RegExp(`^${escapeRegExp(settings.contentApiUrl())}/speech/(?:narrations|embed)/([^/?#]+)`).exec(url);
      if (own) {
        const articleId = (() => {
          try {
            return decodeURIComponent(own[1]!);
          } catch {
            return null;
          }
        })();
        return articleId ? service.findVisible(articleId, auth) : null;
      }
      for (const [uid, type] of Object.entries((await settings.get()).contentTypes)) {
        const values = type.url ? matchFrontEndUrl(type.url, url) : null;
        if (!values || !content.exists(uid)) continue;
        const { locale = null, documentId, ...fields } = values;
        const entry = await content.findLiveWhere(uid, documentId ? { ...fields, documentId } : fields, locale);
        if (entry) return service.findVisible(content.articleIdFor(uid, entry.documentId, entry.locale ?? locale), auth);
      }
      return null;
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
