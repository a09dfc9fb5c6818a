import { z } from 'zod/v3';

/** Values the configuration's slices share (`<feature>/config.ts`). */

/** A site content type's uid, as the configuration's maps are keyed (the message names the key's shape). */
export const contentTypeUidKey = z
  .string()
  .regex(/^[a-z0-9-]+::[a-z0-9-]+\.[a-z0-9-]+$/i, 'must be a content-type uid such as api::article.article');

/** A locale code as Strapi's i18n writes them: `en`, `ar`, `fr-FR`, `zh-Hans`, `es-419`. */
export const localeCode = z.string().regex(/^[a-z]{2,3}(?:-[a-z0-9]{2,8})*$/i, 'must be a locale code such as "ar" or "fr-FR"');

/** An absolute http(s) URL. */
export const httpUrl = z
  .string()
  .url()
  .refine((value) => /^https?:\/\//i.test(value), 'must be an http(s) URL');
