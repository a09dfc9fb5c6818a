import type { ContentApiAccess, ContentApiAuth } from '../access';
import type { NarrationRow, Queue } from '../queue';
import type { SettingsService } from '../settings';
import type { ContentReader } from './content';
import { narrationJson } from './domain/public-view';
import { frontEndUrl, matchFrontEndUrl, placeholdersOf } from './domain/front-end-url';
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
  /** The live entry the caller may see this narration beside (`true`: known live, not read); null when it may not. */
  async function visibleLive(
    row: Pick<NarrationRow, 'contentType' | 'targetDocumentId' | 'targetLocale'>,
    auth: ContentApiAuth | null,
    live?: true
  ): Promise<Record<string, unknown> | true | null> {
    if (!row.contentType.startsWith('api::') || !content.exists(row.contentType)) return null;
    const narrated = (await settings.get()).contentTypes[row.contentType];
    if (!narrated?.publicNarration && !(await contentApi.mayRead(auth, row.contentType))) return null;
    return live ?? (await content.loadLive(row.contentType, row.targetDocumentId, row.targetLocale));
  }

  /** Its page on the site, from the entry when the template names its fields (never guessed). */
  async function pageUrlOf(row: NarrationRow, entry: Record<string, unknown> | true): Promise<string | null> {
    const template = (await settings.get()).contentTypes[row.contentType]?.url;
    if (!template) return null;
    const fields = placeholdersOf(template).filter((field) => field !== 'locale' && field !== 'documentId');
    const known = entry === true || !fields.every((field) => field in entry) ? null : entry;
    const live =
      fields.length === 0
        ? {}
        : (known ?? (await content.liveEntries(row.contentType, [row.targetDocumentId], row.targetLocale, fields)).values().next().value);
    return live ? frontEndUrl(template, { ...live, documentId: row.targetDocumentId }, row.targetLocale) : null;
  }

  const service = {
    /** The public narration JSON, as the routes, REST and GraphQL answer it; `entry`: its live entry, when the caller has it. */
    async json(row: NarrationRow, entry: Record<string, unknown> | true = true) {
      const pageUrl = await pageUrlOf(row, entry);
      return narrationJson(row, settings.contentApiUrl(), { aiLabel: aiLabelFor(aiLabels, row.targetLocale), pageUrl });
    },

    async findVisible(articleId: string, auth: ContentApiAuth | null): Promise<NarrationRow | null> {
      const row = await repository.findByArticleId(articleId, true);
      if (!row || !(await visibleLive(row, auth))) return null;
      return row;
    },

    /** The narration JSON where the caller may see it, the live entry read once for both. */
    async visibleJson(articleId: string, auth: ContentApiAuth | null) {
      const row = await repository.findByArticleId(articleId, true);
      const live = row ? await visibleLive(row, auth) : null;
      return row && live ? service.json(row, live) : null;
    },

    /**
     * The narration a URL names: a narration or embed route of this site, or an entry's page by its
     * type's `url` template. Null unless the caller may read it, as the JSON route answers.
     */
    async findVisibleByUrl(url: string, auth: ContentApiAuth | null): Promise<NarrationRow | null> {
      const api = settings.contentApiUrl();
      const own = matchFrontEndUrl(`${api}/speech/narrations/{articleId}`, url) ?? matchFrontEndUrl(`${api}/speech/embed/{articleId}`, url);
      if (own) return service.findVisible(own.articleId!, auth);
      for (const [uid, type] of Object.entries((await settings.get()).contentTypes)) {
        const values = type.url ? matchFrontEndUrl(type.url, url) : null;
        if (!values || !content.exists(uid)) continue;
        const { locale = null, ...fields } = values;
        const entry = await content.findLiveWhere(uid, fields, locale);
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
      if (!row || !(await visibleLive(row, auth, entry.publishedAt ? true : undefined))) return null;
      return row;
    },
  };
  return service;
}

export type NarrationViews = ReturnType<typeof createNarrationViews>;
