import { documentKey } from '../access';
import { writeStamp, contentTypeSchema, documentsOf, hasDraftAndPublishSchema, isLocalizedSchema } from '../utils';
import type { Core } from '@strapi/strapi';
import { contentTypes as contentTypeUtils } from '@strapi/utils';
import type { SpeechSettings } from '../../../shared/contracts/settings';
import type { ContentTypeNarrationConfig } from './config';
import type { VoiceChoices } from './voice-overrides';
import { articleKey, describeArticle } from './domain/article';
import { narrationModeOf, segmentCharactersOf } from './domain/segments';
import { fieldProblem, narratableFields, narrationConfigProblems, type FieldProblem } from './domain/narratable-fields';
import { triggerProblem } from './domain/triggers';
import { detectLanguage, passageVoiceSettings } from '../passages';
import { resolveVoiceId } from '../voices';

/** A document's entry as the Document Service returns it. */
type ContentEntry = Record<string, unknown> & { documentId: string; locale?: string | null };

/** Which version of a document the Document Service reads. */
type VersionParams = { locale?: string; status?: 'draft' | 'published' };

/** How long the site's locales are taken as read before they are read again. */
const SITE_LOCALES_TTL_MS = 60_000;

/**
 * Reads the content that gets narrated: the published version of a document (or the saved one,
 * for types without draft & publish), and describes it with the current settings.
 */
export function createContentReader(strapi: Core.Strapi) {
  const schema = (uid: string) => contentTypeSchema(strapi, uid);

  /**
   * Strapi's own rule: `private: true`, or listed in `api.responses.privateAttributes` or the model's options.
   * Asked only of a type that exists (the field rules look at a model first).
   */
  const isPrivate = (uid: string) => (field: string) => {
    const model = schema(uid);
    return model !== undefined && contentTypeUtils.isPrivateAttribute(model, field);
  };

  const isLocalized = (uid: string) => isLocalizedSchema(schema(uid));
  const hasDraftAndPublish = (uid: string) => hasDraftAndPublishSchema(schema(uid));

  /**
   * Document Service parameters for one version of a type's documents: the locale where the type
   * has locales, the status where it has drafts.
   */
  function versionParams(uid: string, locale: string | null, status: 'draft' | 'published'): VersionParams {
    const params: VersionParams = {};
    if (locale && isLocalized(uid)) params.locale = locale;
    if (hasDraftAndPublish(uid)) params.status = status;
    return params;
  }

  /**
   * The site's locales as last read (default first): the languages a passage may be told in
   * (docs/passage-voices.md). Read at start-up, and again at most once a minute after that.
   */
  let siteLocales: { codes: string[]; readAt: number } = { codes: [], readAt: 0 };
  function knownLocales(reader: { siteLocales(): Promise<string[]> }): string[] {
    if (Date.now() - siteLocales.readAt > SITE_LOCALES_TTL_MS) {
      siteLocales = { ...siteLocales, readAt: Date.now() };
      reader.siteLocales().then(
        (codes) => (siteLocales = { codes, readAt: Date.now() }),
        () => undefined
      );
    }
    return siteLocales.codes;
  }

  async function loadVersion(uid: string, documentId: string, locale: string | null, status: 'draft' | 'published') {
    const entry: ContentEntry | null = await documentsOf(strapi, uid).findOne({ documentId, ...versionParams(uid, locale, status) });
    return entry ?? null;
  }

  return {
    /** Why narrating `uid` with these fields can never be allowed (an empty list when it can). */
    configProblems(
      uid: string,
      narration: Pick<ContentTypeNarrationConfig, 'titleField' | 'textFields' | 'authorField' | 'trigger'>
    ): FieldProblem[] {
      const problems = narrationConfigProblems(uid, schema(uid), narration, isPrivate(uid));
      const trigger = schema(uid) ? triggerProblem(uid, narration.trigger, this.hasDraftAndPublish(uid)) : null;
      return trigger ? [...problems, { path: ['contentTypes', uid, 'trigger'], message: trigger }] : problems;
    },

    /** Every problem of a whole `contentTypes` setting (the config file's, or one sent to the settings route). */
    contentTypesProblems(
      contentTypes: Record<string, Pick<ContentTypeNarrationConfig, 'titleField' | 'textFields' | 'authorField' | 'trigger'>>
    ): FieldProblem[] {
      return Object.entries(contentTypes).flatMap(([uid, typeSettings]) => this.configProblems(uid, typeSettings));
    },

    /** The fields of `uid` an editor may choose to narrate (text, not private), in schema order. */
    narratableFieldNames(uid: string): string[] {
      const model = schema(uid);
      if (!model || !uid.startsWith('api::')) return [];
      return Object.keys(model.attributes).filter((field) => fieldProblem(model, field, isPrivate(uid)) === null);
    },

    /** Reads the site's locales for passage voices (bootstrap, before the first narration is described). */
    async loadSiteLocales(): Promise<void> {
      siteLocales = { codes: await this.siteLocales(), readAt: Date.now() };
    },

    /** The locale codes of the site (i18n), default first; none without the i18n plugin. */
    async siteLocales(): Promise<string[]> {
      const i18n = strapi.plugin('i18n') as unknown as
        | { service(name: 'locales'): { find(): Promise<Array<{ code: string; isDefault?: boolean }>> } }
        | undefined;
      if (!i18n) return [];
      const locales = await i18n.service('locales').find();
      return [...locales].sort((a, b) => Number(Boolean(b.isDefault)) - Number(Boolean(a.isDefault))).map((locale) => locale.code);
    },

    exists(uid: string): boolean {
      return Boolean(schema(uid));
    },
    isLocalized,
    hasDraftAndPublish,

    /** The narration's key of one document (and locale, for localized types). */
    articleIdFor: (uid: string, documentId: string, locale: string | null) => articleKey(documentId, locale, isLocalized(uid)),

    /** The version front ends see: published for draft & publish types, the only one otherwise. */
    loadLive: (uid: string, documentId: string, locale: string | null) => loadVersion(uid, documentId, locale, 'published'),

    /** The version editors are working on: the draft for draft & publish types, the only one otherwise. */
    loadDraft: (uid: string, documentId: string, locale: string | null) => loadVersion(uid, documentId, locale, 'draft'),

    /** One page of the live versions of a type's documents (in `locale`), oldest first, and how many there are. */
    async livePage(uid: string, locale: string | null, { start, limit }: { start: number; limit: number }) {
      const params = versionParams(uid, locale, 'published');
      const documents = documentsOf(strapi, uid);
      const [entries, total]: [ContentEntry[], number] = await Promise.all([
        documents.findMany({ ...params, sort: 'id:asc', start, limit }),
        documents.count(params),
      ]);
      return { entries, total };
    },

    /**
     * Which of these documents have a live version (in `locale`, or in any locale when null), as
     * `documentKey`s (with the locale for localized types): one query for all of them.
     */
    async liveKeys(uid: string, documentIds: string[], locale: string | null): Promise<Set<string>> {
      if (documentIds.length === 0) return new Set();
      const localized = isLocalized(uid);
      const params = { ...versionParams(uid, locale, 'published'), ...(localized && !locale ? { locale: '*' } : {}) };
      const entries: ContentEntry[] = await documentsOf(strapi, uid).findMany({
        ...params,
        filters: { documentId: { $in: documentIds } },
        fields: localized ? ['documentId', 'locale'] : ['documentId'],
      });
      return new Set(entries.map((entry) => documentKey(entry.documentId, localized ? (entry.locale ?? null) : null)));
    },

    /** Changes whenever a live version of the type is written, added or removed (a publish, an unpublish, a save). */
    async liveStamp(uid: string): Promise<string> {
      return writeStamp(strapi.db.query(uid), { publishedAt: { $notNull: true } });
    },

    describe(
      uid: string,
      entry: ContentEntry,
      narration: SpeechSettings['contentTypes'][string],
      settings: SpeechSettings,
      choices: VoiceChoices = {}
    ) {
      const model = schema(uid);
      const locale = this.isLocalized(uid) ? (entry.locale ?? null) : null;
      const voiceId = resolveVoiceId({
        override: choices.voiceId,
        locale,
        localeVoices: settings.localeVoices,
        defaultVoiceId: settings.defaultVoiceId,
      });
      return describeArticle({
        contentType: uid,
        entry,
        // A type without draft & publish is changed in place: its publishedAt tells no save from the next.
        publishedAt: this.hasDraftAndPublish(uid) ? entry.publishedAt : null,
        // Never a private field or a password, whatever the settings say.
        narration: model && uid.startsWith('api::') ? narratableFields(model, narration, isPrivate(uid)) : { textFields: [] },
        attributes: model?.attributes,
        localized: this.isLocalized(uid),
        voiceId,
        preprocessType: settings.preprocessType,
        segmentCharacters: narrationModeOf(narration) === 'segmented' ? segmentCharactersOf(narration, settings.segmentCharacters) : null,
        lexicon: settings.lexicon,
        siteName: settings.siteName,
        introTemplates: settings.introTemplates,
        outroTemplates: settings.outroTemplates,
        passages: narration.passageVoices
          ? {
              settings: passageVoiceSettings({
                locale,
                siteLocales: knownLocales(this),
                localeVoices: settings.localeVoices,
                quoteVoices: settings.quoteVoices,
                overrides: choices.passages ?? {},
              }),
              detect: detectLanguage,
            }
          : null,
      });
    },
  };
}

export type ContentReader = ReturnType<typeof createContentReader>;
