import type { Core } from '@strapi/strapi';
import { contentTypeSchema, defaultLocaleOf, documentsOf, hasDraftAndPublishSchema, isLocalizedSchema } from '../utils';

/**
 * What an admin may do with a document, decided by the Content Manager's own permission checker
 * (the same one behind its edit view), so roles, conditions such as "is creator" and locale
 * restrictions hold for the plugin's routes exactly as they do for the content itself.
 *
 * - `read`: see the narration, its text, its estimate (Content Manager "read").
 * - `narrate`: spend credits on it or change how it is read (narrate, regenerate, voice, cancel,
 *   listen): what putting that text live needs, "publish" for a type with draft & publish,
 *   "update" for a type without it.
 */
export type DocumentAction = 'read' | 'narrate';

export type DocumentDecision = 'allowed' | 'forbidden' | 'not-found';

type CmAction = 'read' | 'publish' | 'update';

/** What the Document Service's `findMany` takes: the Content Manager builds its queries for it. */
type FindManyParams = NonNullable<Parameters<ReturnType<typeof documentsOf>['findMany']>[0]>;

/** A query for the permission checker: which documents, without pagination (the `findMany` that runs it sets its limit). */
type DocumentQuery = Omit<FindManyParams, 'page' | 'pageSize' | 'start' | 'limit'>;

interface PermissionChecker {
  requiresEntity: Record<CmAction, () => boolean>;
  can: Record<CmAction, (entity?: unknown) => boolean>;
  cannot: Record<CmAction, (entity?: unknown) => boolean>;
  sanitizedQuery: Record<CmAction, (query: DocumentQuery) => Promise<DocumentQuery>>;
}

export interface DocumentRef {
  documentId: string;
  locale: string | null;
}

export function createDocumentPermissions(strapi: Core.Strapi) {
  const contentManager = () => strapi.plugin('content-manager');
  const model = (uid: string) => contentTypeSchema(strapi, uid);
  const hasDraftAndPublish = (uid: string) => hasDraftAndPublishSchema(model(uid));
  const isLocalized = (uid: string) => isLocalizedSchema(model(uid));

  function checker(userAbility: unknown, uid: string): PermissionChecker {
    return contentManager().service('permission-checker').create({ userAbility, model: uid }) as PermissionChecker;
  }

  function cmAction(uid: string, action: DocumentAction): CmAction {
    if (action === 'read') return 'read';
    return hasDraftAndPublish(uid) ? 'publish' : 'update';
  }

  /**
   * The relations the caller's conditions look at ("is creator" reads createdBy), as the Content
   * Manager works them out: from the permission query of that action.
   */
  async function conditionPopulate(permissions: PermissionChecker, uid: string, action: CmAction, query: DocumentQuery = {}) {
    const permissionQuery = await permissions.sanitizedQuery[action](query);
    const populateBuilder = contentManager().service('populate-builder') as unknown as (uid: string) => {
      populateFromQuery(query: DocumentQuery): { build(): Promise<FindManyParams['populate']> };
    };
    const populate = await populateBuilder(uid).populateFromQuery(permissionQuery).build();
    return { permissionQuery, populate };
  }

  /** The version the editor works on: the draft for draft & publish types, the only one otherwise. */
  function versionParams(uid: string, locale: string | null): { status?: 'draft'; locale?: string } {
    const params: { status?: 'draft'; locale?: string } = {};
    if (hasDraftAndPublish(uid)) params.status = 'draft';
    if (locale && isLocalized(uid)) params.locale = locale;
    return params;
  }

  /**
   * The locale a request on `uid` acts in: for a localized type the one it names, else the site's
   * default (which the Document Service reads when none is named, so a missing locale is checked
   * as the one that will be read); null for a type without locales.
   */
  async function localeOf(uid: string, locale: string | null): Promise<string | null> {
    if (!isLocalized(uid)) return null;
    return locale ?? (await defaultLocaleOf(strapi));
  }

  return {
    localeOf,
    /** Whether the type has locales (a document's key then carries one). */
    isLocalized,

    /** May this admin do `action` on this document (and locale)? Reads the one version it needs. */
    async decide(userAbility: unknown, uid: string, target: DocumentRef, action: DocumentAction): Promise<DocumentDecision> {
      if (!model(uid)) return 'not-found';
      const permissions = checker(userAbility, uid);
      const needed = cmAction(uid, action);
      if (permissions.cannot[needed]()) return 'forbidden';
      const { populate } = await conditionPopulate(permissions, uid, needed);
      const version = await documentsOf(strapi, uid).findOne({
        documentId: target.documentId,
        ...versionParams(uid, await localeOf(uid, target.locale)),
        populate,
      });
      if (!version) return 'not-found';
      return permissions.cannot[needed](version) ? 'forbidden' : 'allowed';
    },

    /**
     * Of these documents, the ones (per locale) the admin may `action`: one query per locale, with
     * the caller's conditions added to it the way the Content Manager's list view adds them. Keys
     * carry each target's locale as given; a missing one is checked as the default locale.
     */
    async permitted(userAbility: unknown, uid: string, targets: DocumentRef[], action: DocumentAction): Promise<Set<string>> {
      const allowed = new Set<string>();
      if (!model(uid) || targets.length === 0) return allowed;
      const needed = cmAction(uid, action);
      const keyOf = (target: DocumentRef) => documentKey(target.documentId, isLocalized(uid) ? target.locale : null);
      const fallback = isLocalized(uid) && targets.some((target) => target.locale === null) ? await localeOf(uid, null) : null;
      const checkedLocale = (target: DocumentRef) => (isLocalized(uid) ? (target.locale ?? fallback) : null);
      const everyDocument = () => {
        for (const target of targets) allowed.add(keyOf(target));
        return allowed;
      };
      // The list view asks on every page: a role whose rules for this action carry no condition but
      // the locales it may use (a super admin, an editor) is answered from the ability alone,
      // without building the Content Manager's checker or reading any document.
      const locales = grantedLocales(userAbility, `plugin::content-manager.explorer.${needed}`, uid);
      if (locales === 'all') return everyDocument();
      if (locales) {
        for (const target of targets) {
          const locale = checkedLocale(target);
          if (locale === null ? !isLocalized(uid) : locales.has(locale)) allowed.add(keyOf(target));
        }
        return allowed;
      }
      const permissions = checker(userAbility, uid);
      if (permissions.cannot[needed]()) return allowed;
      if (!permissions.requiresEntity[needed]()) return everyDocument();
      const byLocale = new Map<string | null, DocumentRef[]>();
      for (const target of targets) {
        const locale = checkedLocale(target);
        byLocale.set(locale, [...(byLocale.get(locale) ?? []), target]);
      }
      for (const [locale, localeTargets] of byLocale) {
        const unique = [...new Set(localeTargets.map((target) => target.documentId))];
        const { permissionQuery, populate } = await conditionPopulate(permissions, uid, needed, {
          filters: { documentId: { $in: unique } },
        });
        const versions = await documentsOf(strapi, uid).findMany({
          ...permissionQuery,
          ...versionParams(uid, locale),
          populate,
          limit: unique.length,
        });
        // The query already carries the conditions; the check on each version is the Content
        // Manager's own last word (field-level and locale rules included).
        const granted = new Set(versions.filter((version) => permissions.can[needed](version)).map((version) => version.documentId));
        for (const target of localeTargets) if (granted.has(target.documentId)) allowed.add(keyOf(target));
      }
      return allowed;
    },
  };
}

interface AbilityLike {
  can(action: string, subject: string): boolean;
  rulesFor?(action: string, subject: string): Array<{ conditions?: unknown; inverted?: boolean }>;
}

function intersect(a: Set<string>, b: Set<string>): Set<string> {
  return new Set([...a].filter((value) => b.has(value)));
}

/** The locales a condition limits a rule to: 'all' without a condition, null when it says more than that. */
export function conditionLocales(conditions: unknown): Set<string> | 'all' | null {
  if (conditions === undefined || conditions === null) return 'all';
  if (typeof conditions !== 'object') return null;
  const keys = Object.keys(conditions);
  if (keys.length === 0) return 'all';
  if (keys.length !== 1) return null;
  const [key] = keys;
  const value = (conditions as Record<string, unknown>)[key];
  if (key === '$and' && Array.isArray(value)) {
    let result = 'all' as Set<string> | 'all';
    for (const part of value) {
      const locales = conditionLocales(part);
      if (locales === null) return null;
      if (locales !== 'all') result = result === 'all' ? locales : intersect(result, locales);
    }
    return result;
  }
  const within = key === 'locale' && value && typeof value === 'object' ? (value as { $in?: unknown }).$in : undefined;
  return Array.isArray(within) && within.every((locale) => typeof locale === 'string') ? new Set(within as string[]) : null;
}

/**
 * Where a role's rules for `action` on a type hold whatever the document, limited at most by
 * locale (i18n writes a role's locales as a `locale $in` condition, even a super admin's): the
 * locales granted, 'all', or null when a rule has another condition (such as "is creator") and
 * each document must be read.
 */
export function grantedLocales(userAbility: unknown, action: string, uid: string): Set<string> | 'all' | null {
  const ability = userAbility as AbilityLike | null;
  if (!ability || typeof ability.rulesFor !== 'function' || !ability.can(action, uid)) return null;
  const rules = ability.rulesFor(action, uid);
  if (rules.length === 0 || rules.some((rule) => rule.inverted)) return null;
  let granted: Set<string> | 'all' = new Set();
  for (const rule of rules) {
    const locales = conditionLocales(rule.conditions);
    if (locales === null) return null;
    if (locales === 'all') granted = 'all';
    else if (granted !== 'all') granted = new Set([...granted, ...locales]);
  }
  return granted;
}

/** A key for a document in one locale (`null` for types without i18n). */
export function documentKey(documentId: string, locale: string | null): string {
  return `${documentId}\u0000${locale ?? ''}`;
}

export type DocumentPermissions = ReturnType<typeof createDocumentPermissions>;
