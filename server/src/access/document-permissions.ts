import type { Core } from '@strapi/strapi';
import { contentTypeSchema, defaultLocaleOf, documentsOf, hasDraftAndPublishSchema, isLocalizedSchema } from '../utils';

/**
 * Decided by the Content Manager's own permission checker, so roles, conditions ("is creator") and
 * locales hold for the plugin's routes as for the content. `narrate` (spending credits, changing how
 * it is read) needs what putting that text live needs: "publish", or "update" without draft & publish.
 */
export type DocumentAction = 'read' | 'narrate';

export type DocumentDecision = 'allowed' | 'forbidden' | 'not-found';

/** What a role may see of a type: all of it, some locales, each document as its conditions say, or none. */
export type TypeAccess = { kind: 'all' } | { kind: 'locales'; locales: ReadonlySet<string> } | { kind: 'per-document' } | { kind: 'none' };

/** Whether a type's access covers every document in a locale (null: a type without locales) without reading one. */
export const coversLocale = (granted: TypeAccess, locale: string | null): boolean =>
  granted.kind === 'all' || (granted.kind === 'locales' && locale !== null && granted.locales.has(locale));

type CmAction = 'read' | 'publish' | 'update';

type FindManyParams = NonNullable<Parameters<ReturnType<typeof documentsOf>['findMany']>[0]>;

/** The `findMany` that runs it sets its own limit. */
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

/** The Content Manager's own services and a type's schema, as the permission checks read them. */
function documentLookups(strapi: Core.Strapi) {
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

  /** The relations the caller's conditions look at ("is creator" reads createdBy), as the Content Manager finds them. */
  async function conditionPopulate(permissions: PermissionChecker, uid: string, action: CmAction, query: DocumentQuery = {}) {
    const permissionQuery = await permissions.sanitizedQuery[action](query);
    const populateBuilder = contentManager().service('populate-builder') as unknown as (uid: string) => {
      populateFromQuery(query: DocumentQuery): { build(): Promise<FindManyParams['populate']> };
    };
    const populate = await populateBuilder(uid).populateFromQuery(permissionQuery).build();
    return { permissionQuery, populate };
  }

  function versionParams(uid: string, locale: string | null): { status?: 'draft'; locale?: string } {
    const params: { status?: 'draft'; locale?: string } = {};
    if (hasDraftAndPublish(uid)) params.status = 'draft';
    if (locale && isLocalized(uid)) params.locale = locale;
    return params;
  }

  /** A missing locale is the site's default, which the Document Service reads when none is named. */
  async function localeOf(uid: string, locale: string | null): Promise<string | null> {
    if (!isLocalized(uid)) return null;
    return locale ?? (await defaultLocaleOf(strapi));
  }

  return { model, isLocalized, checker, cmAction, conditionPopulate, versionParams, localeOf };
}

export function createDocumentPermissions(strapi: Core.Strapi) {
  const { model, isLocalized, checker, cmAction, conditionPopulate, versionParams, localeOf } = documentLookups(strapi);

  return {
    localeOf,
    isLocalized,

    /** Decided from the ability alone: lists over many types filter by it in their query. */
    typeAccess(userAbility: unknown, uid: string, action: DocumentAction): TypeAccess {
      if (!model(uid)) return { kind: 'none' };
      const needed = cmAction(uid, action);
      const locales = grantedLocales(userAbility, `plugin::content-manager.explorer.${needed}`, uid);
      if (locales === 'all' || (locales && !isLocalized(uid))) return { kind: 'all' };
      if (locales) return { kind: 'locales', locales };
      const permissions = checker(userAbility, uid);
      if (permissions.cannot[needed]()) return { kind: 'none' };
      return permissions.requiresEntity[needed]() ? { kind: 'per-document' } : { kind: 'all' };
    },

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

    /** One query per locale, with the conditions added as the Content Manager's list view adds them. */
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
      // The list view asks on every page: a role with no condition but locales (a super admin, an
      // editor) is answered from the ability alone, reading no document.
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
        // The query carries the conditions; each version's check is the Content Manager's last word.
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

/** 'all' without a condition, null when it says more than locales. */
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

/** i18n writes a role's locales as a `locale $in` condition, even a super admin's; null: each document must be read. */
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

export function documentKey(documentId: string, locale: string | null): string {
  return `${documentId}\u0000${locale ?? ''}`;
}

export type DocumentPermissions = ReturnType<typeof createDocumentPermissions>;
