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

type ContentEntry = Record<string, unknown> & { documentId: string; locale?: string | null };

type VersionParams = { locale?: string; status?: 'draft' | 'published' };

const SITE_LOCALES_TTL_MS = 60_000;

/** A type's schema as narration reads it: what may be narrated, and whether it is localized or has draft & publish. */
function createTypeRules(strapi: Core.Strapi) {
  const schema = (uid: string) => contentTypeSchema(strapi, uid);

  /** Strapi's own rule: `private: true`, or listed in `api.responses.privateAttributes` or the model's options. */
  const isPrivate = (uid: string) => (field: string) => {
    const model = schema(uid);
    return model !== undefined && contentTypeUtils.isPrivateAttribute(model, field);
  };

  const isLocalized = (uid: string) => isLocalizedSchema(schema(uid));
  const hasDraftAndPublish = (uid: string) => hasDraftAndPublishSchema(schema(uid));

  function versionParams(uid: string, locale: string | null, status: 'draft' | 'published'): VersionParams {
    const params: VersionParams = {};
    if (locale && isLocalized(uid)) params.locale = locale;
    if (hasDraftAndPublish(uid)) params.status = status;
    return params;
  }

  const rules = {
    isLocalized,
    hasDraftAndPublish,
    configProblems(
      uid: string,
      narration: Pick<ContentTypeNarrationConfig, 'titleField' | 'textFields' | 'authorField' | 'trigger' | 'url' | 'summary'>
    ): FieldProblem[] {
      const problems = narrationConfigProblems(uid, schema(uid), narration, isPrivate(uid));
      const trigger = schema(uid) ? triggerProblem(uid, narration.trigger, hasDraftAndPublish(uid)) : null;
      return trigger ? [...problems, { path: ['contentTypes', uid, 'trigger'], message: trigger }] : problems;
    },

    contentTypesProblems(
      contentTypes: Record<
        string,
        Pick<ContentTypeNarrationConfig, 'titleField' | 'textFields' | 'authorField' | 'trigger' | 'url' | 'summary'>
      >
    ): FieldProblem[] {
      return Object.entries(contentTypes).flatMap(([uid, typeSettings]) => rules.configProblems(uid, typeSettings));
    },

    narratableFieldNames(uid: string): string[] {
      const model = schema(uid);
      if (!model || !uid.startsWith('api::')) return [];
      return Object.keys(model.attributes).filter((field) => fieldProblem(model, field, isPrivate(uid)) === null);
    },

    exists(uid: string): boolean {
      return Boolean(schema(uid));
    },

    attributeType(uid: string, field: string): string | undefined {
      const attributes = schema(uid)?.attributes;
      return attributes && Object.prototype.hasOwnProperty.call(attributes, field) ? attributes[field].type : undefined;
    },
  };
  // `rules` is what the content reader offers; the schema lookups stay inside narration's reads.
  return { ...rules, schema, isPrivate, versionParams, rules };
}

/** The site's locales: read at start-up, then at most once a minute, never waited for by a describe. */
function createSiteLocales(strapi: Core.Strapi) {
  let cached: { codes: string[]; readAt: number } = { codes: [], readAt: 0 };

  async function siteLocales(): Promise<string[]> {
    const i18n = strapi.plugin('i18n') as unknown as
      | { service(name: 'locales'): { find(): Promise<Array<{ code: string; isDefault?: boolean }>> } }
      | undefined;
    if (!i18n) return [];
    const locales = await i18n.service('locales').find();
    return [...locales].sort((a, b) => Number(Boolean(b.isDefault)) - Number(Boolean(a.isDefault))).map((locale) => locale.code);
  }

  return {
    siteLocales,
    async loadSiteLocales(): Promise<void> {
      cached = { codes: await siteLocales(), readAt: Date.now() };
    },

    known(): string[] {
      if (Date.now() - cached.readAt > SITE_LOCALES_TTL_MS) {
        cached = { ...cached, readAt: Date.now() };
        siteLocales().then(
          (codes) => (cached = { codes, readAt: Date.now() }),
          () => undefined
        );
      }
      return cached.codes;
    },
  };
}

/** A document's live and draft versions, a type's live page and keys. */
function createDocumentReads(strapi: Core.Strapi, types: TypeRules) {
  async function loadVersion(uid: string, documentId: string, locale: string | null, status: 'draft' | 'published') {
    const entry: ContentEntry | null = await documentsOf(strapi, uid).findOne({ documentId, ...types.versionParams(uid, locale, status) });
    return entry ?? null;
  }

  /** Live versions, in `locale` or (null, on a localized type) in every locale, with their keys and `fields`. */
  function liveQuery(uid: string, locale: string | null, fields: readonly string[] = []) {
    const localized = types.isLocalized(uid);
    return {
      ...types.versionParams(uid, locale, 'published'),
      ...(localized && !locale ? { locale: '*' } : {}),
      fields: [...new Set([...(localized ? ['documentId', 'locale'] : ['documentId']), ...fields])],
    };
  }

  /** The live versions of these documents by documentKey, with `fields` besides their keys. */
  async function liveEntries(
    uid: string,
    documentIds: string[],
    locale: string | null,
    fields: readonly string[] = []
  ): Promise<Map<string, ContentEntry>> {
    if (documentIds.length === 0) return new Map();
    const localized = types.isLocalized(uid);
    const entries: ContentEntry[] = await documentsOf(strapi, uid).findMany({
      ...liveQuery(uid, locale, fields),
      filters: { documentId: { $in: documentIds } },
    });
    return new Map(entries.map((entry) => [documentKey(entry.documentId, localized ? (entry.locale ?? null) : null), entry]));
  }

  return {
    articleIdFor: (uid: string, documentId: string, locale: string | null) => articleKey(documentId, locale, types.isLocalized(uid)),

    loadLive: (uid: string, documentId: string, locale: string | null) => loadVersion(uid, documentId, locale, 'published'),

    loadDraft: (uid: string, documentId: string, locale: string | null) => loadVersion(uid, documentId, locale, 'draft'),

    async livePage(uid: string, locale: string | null, { start, limit }: { start: number; limit: number }) {
      const params = types.versionParams(uid, locale, 'published');
      const documents = documentsOf(strapi, uid);
      const [entries, total]: [ContentEntry[], number] = await Promise.all([
        documents.findMany({ ...params, sort: 'id:asc', start, limit }),
        documents.count(params),
      ]);
      return { entries, total };
    },

    liveEntries,

    /** Live entries published before `publishedBefore`, newest first, after `after` (the last one a caller read). */
    async liveBefore(
      uid: string,
      locale: string | null,
      { publishedBefore, after, limit }: { publishedBefore: Date; after: ArchiveCursor | null; limit: number }
    ): Promise<ContentEntry[]> {
      const before = { publishedAt: { $lt: publishedBefore.toISOString() } };
      // Newest first, a tie on the moment broken by the document id.
      const filters = after
        ? {
            ...before,
            $or: [{ publishedAt: { $lt: after.publishedAt } }, { publishedAt: after.publishedAt, documentId: { $lt: after.documentId } }],
          }
        : before;
      return documentsOf(strapi, uid).findMany({
        ...types.versionParams(uid, locale, 'published'),
        filters,
        sort: ['publishedAt:desc', 'documentId:desc'],
        limit,
      });
    },

    /** How many live entries were published before `publishedBefore`. */
    async liveCountBefore(uid: string, locale: string | null, publishedBefore: Date): Promise<number> {
      return documentsOf(strapi, uid).count({
        ...types.versionParams(uid, locale, 'published'),
        filters: { publishedAt: { $lt: publishedBefore.toISOString() } },
      });
    },

    /** The first live entry whose fields equal these values; `locale` null on a localized type: any locale. */
    async findLiveWhere(uid: string, values: Record<string, string>, locale: string | null): Promise<ContentEntry | null> {
      const filters = Object.fromEntries(Object.entries(values).map(([field, value]) => [field, { $eq: value }]));
      const entry: ContentEntry | null = await documentsOf(strapi, uid).findFirst({ ...liveQuery(uid, locale), filters });
      return entry ?? null;
    },

    /** One query for all of them; `documentKey`s, with the locale for localized types. */
    async liveKeys(uid: string, documentIds: string[], locale: string | null): Promise<Set<string>> {
      return new Set((await liveEntries(uid, documentIds, locale)).keys());
    },

    async liveStamp(uid: string): Promise<string> {
      return writeStamp(strapi.db.query(uid), { publishedAt: { $notNull: true } });
    },
  };
}

type TypeRules = ReturnType<typeof createTypeRules>;

/** Where a walk through the archive, newest first, has reached. */
export interface ArchiveCursor {
  publishedAt: string;
  documentId: string;
}

export function createContentReader(strapi: Core.Strapi) {
  const types = createTypeRules(strapi);
  const locales = createSiteLocales(strapi);
  return {
    ...types.rules,
    siteLocales: locales.siteLocales,
    loadSiteLocales: locales.loadSiteLocales,
    ...createDocumentReads(strapi, types),

    describe(
      uid: string,
      entry: ContentEntry,
      narration: SpeechSettings['contentTypes'][string],
      settings: SpeechSettings,
      choices: VoiceChoices = {}
    ) {
      const model = types.schema(uid);
      const locale = types.isLocalized(uid) ? (entry.locale ?? null) : null;
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
        publishedAt: types.hasDraftAndPublish(uid) ? entry.publishedAt : null,
        // Never a private field or a password, whatever the settings say.
        narration: model && uid.startsWith('api::') ? narratableFields(model, narration, types.isPrivate(uid)) : { textFields: [] },
        attributes: model?.attributes,
        localized: types.isLocalized(uid),
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
                siteLocales: locales.known(),
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
