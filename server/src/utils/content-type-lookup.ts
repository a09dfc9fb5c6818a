import type { Core, Schema, UID } from '@strapi/strapi';
import { contentTypes } from '@strapi/utils';

/**
 * Strapi's content-type APIs for a type whose uid is known only at run time.
 *
 * Strapi types `strapi.contentType(uid)` and `strapi.documents(uid)` by the uid's literal type,
 * drawn from the registry an application generates for its own types. This plugin works on the
 * types a site's config and its requests name: plain strings, which only the schema, at run
 * time, can confirm. So a string becomes a `UID.ContentType` here, and only here; that Strapi
 * has no schema for a uid it does not know is in these helpers' types instead.
 */
function contentTypeUid(uid: string): UID.ContentType {
  return uid as UID.ContentType;
}

/** The schema of the type, or undefined when there is no such type (Strapi's signature says there always is). */
export function contentTypeSchema(strapi: Core.Strapi, uid: string): Schema.ContentType | undefined {
  return strapi.contentType(contentTypeUid(uid));
}

/** The Document Service of the type. */
export function documentsOf(strapi: Core.Strapi, uid: string) {
  return strapi.documents(contentTypeUid(uid));
}

/** Whether the type has draft & publish, by Strapi's own rule; false when there is no such type. */
export function hasDraftAndPublishSchema(schema: Schema.ContentType | undefined): boolean {
  return schema !== undefined && contentTypes.hasDraftAndPublish(schema);
}

/** Whether the type has locales: i18n marks it in the schema's `pluginOptions`, which Strapi types as unknown per plugin. */
export function isLocalizedSchema(schema: Schema.ContentType | undefined): boolean {
  const i18n = schema?.pluginOptions?.i18n;
  return typeof i18n === 'object' && i18n !== null && 'localized' in i18n && Boolean(i18n.localized);
}

/**
 * The site's default locale (i18n), the one the Document Service reads when a query names none;
 * null without the i18n plugin.
 */
export async function defaultLocaleOf(strapi: Core.Strapi): Promise<string | null> {
  const i18n = strapi.plugin('i18n') as unknown as { service(name: 'locales'): { getDefaultLocale(): Promise<string | null> } } | undefined;
  return i18n ? ((await i18n.service('locales').getDefaultLocale()) ?? null) : null;
}
