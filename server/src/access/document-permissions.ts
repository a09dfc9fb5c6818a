import type { Core } from '@strapi/strapi';

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

interface PermissionChecker {
  requiresEntity: Record<CmAction, () => boolean>;
  can: Record<CmAction, (entity?: unknown) => boolean>;
  cannot: Record<CmAction, (entity?: unknown) => boolean>;
  sanitizedQuery: Record<CmAction, (query: Record<string, unknown>) => Promise<Record<string, unknown>>>;
}

export interface DocumentRef {
  documentId: string;
  locale: string | null;
}

export function createDocumentPermissions(strapi: Core.Strapi) {
  const contentManager = () => strapi.plugin('content-manager');
  const model = (uid: string) => strapi.contentType(uid as never) as unknown as { options?: { draftAndPublish?: boolean }; pluginOptions?: { i18n?: { localized?: boolean } } } | undefined;
  const hasDraftAndPublish = (uid: string) => Boolean(model(uid)?.options?.draftAndPublish);
  const isLocalized = (uid: string) => Boolean(model(uid)?.pluginOptions?.i18n?.localized);

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
  async function conditionPopulate(permissions: PermissionChecker, uid: string, action: CmAction, query: Record<string, unknown> = {}) {
    const permissionQuery = await permissions.sanitizedQuery[action](query);
    const populateBuilder = contentManager().service('populate-builder') as unknown as (uid: string) => { populateFromQuery(query: unknown): { build(): Promise<unknown> } };
    const populate = await populateBuilder(uid).populateFromQuery(permissionQuery).build();
    return { permissionQuery, populate };
  }

  /** The version the editor works on: the draft for draft & publish types, the only one otherwise. */
  function versionParams(uid: string, locale: string | null): Record<string, unknown> {
    const params: Record<string, unknown> = {};
    if (hasDraftAndPublish(uid)) params.status = 'draft';
    if (locale && isLocalized(uid)) params.locale = locale;
    return params;
  }

  return {
    /** May this admin do `action` on this document (and locale)? Reads the one version it needs. */
    async decide(userAbility: unknown, uid: string, target: DocumentRef, action: DocumentAction): Promise<DocumentDecision> {
      if (!model(uid)) return 'not-found';
      const permissions = checker(userAbility, uid);
      const needed = cmAction(uid, action);
      if (permissions.cannot[needed]()) return 'forbidden';
      const { populate } = await conditionPopulate(permissions, uid, needed);
      const version = await strapi.documents(uid as never).findOne({ documentId: target.documentId, ...versionParams(uid, target.locale), populate } as never);
      if (!version) return 'not-found';
      return permissions.cannot[needed](version) ? 'forbidden' : 'allowed';
    },

    /**
     * Of these documents, the ones (per locale) the admin may `action`: one query per locale, with
     * the caller's conditions added to it the way the Content Manager's list view adds them.
     */
    async permitted(userAbility: unknown, uid: string, targets: DocumentRef[], action: DocumentAction): Promise<Set<string>> {
      const allowed = new Set<string>();
      if (!model(uid) || targets.length === 0) return allowed;
      const permissions = checker(userAbility, uid);
      const needed = cmAction(uid, action);
      if (permissions.cannot[needed]()) return allowed;
      if (!permissions.requiresEntity[needed]()) {
        // No condition on any rule (a super admin, an editor): the type-level answer holds for
        // every document, so none needs to be read (the list view asks on every page).
        for (const target of targets) allowed.add(documentKey(target.documentId, isLocalized(uid) ? target.locale : null));
        return allowed;
      }
      const byLocale = new Map<string | null, string[]>();
      for (const target of targets) {
        const locale = isLocalized(uid) ? target.locale : null;
        byLocale.set(locale, [...(byLocale.get(locale) ?? []), target.documentId]);
      }
      for (const [locale, documentIds] of byLocale) {
        const unique = [...new Set(documentIds)];
        const { permissionQuery, populate } = await conditionPopulate(permissions, uid, needed, { filters: { documentId: { $in: unique } } });
        const versions = (await strapi.documents(uid as never).findMany({
          ...permissionQuery,
          ...versionParams(uid, locale),
          populate,
          limit: unique.length,
        } as never)) as Array<Record<string, unknown> & { documentId: string }>;
        for (const version of versions) {
          // The query already carries the conditions; the check on each version is the Content
          // Manager's own last word (field-level and locale rules included).
          if (permissions.can[needed](version)) allowed.add(documentKey(version.documentId, locale));
        }
      }
      return allowed;
    },
  };
}

/** A key for a document in one locale (`null` for types without i18n). */
export function documentKey(documentId: string, locale: string | null): string {
  return `${documentId}\u0000${locale ?? ''}`;
}

export type DocumentPermissions = ReturnType<typeof createDocumentPermissions>;
