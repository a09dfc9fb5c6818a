import type { ServiceName, Services } from '../services';

/** Small helpers every feature may use. Other features import them from here. */
export { addToTotals } from './add-to-totals';
export { boundedMap } from './bounded-map';
export { contentTypeUidKey, httpUrl, localeCode } from './config-values';
export { contentTypeSchema, defaultLocaleOf, documentsOf, hasDraftAndPublishSchema, isLocalizedSchema } from './content-type-lookup';
export { createFailureEpisodes } from './failure-episodes';
export { createLimiter } from './limiter';
export { safeFileName, splitExtension } from './safe-file-name';
export { withSavepoint } from './savepoint';
export { createSerialRunner } from './serial-runner';
export { writeStamp } from './write-stamp';

/**
 * One of the plugin's services, typed by its factory in services/index.ts (as Strapi's own plugins
 * do it: i18n's `getService`). A type-only import, erased from the build: utils/ depends on no
 * feature at run time.
 */
export function getService<Name extends ServiceName>(name: Name): Services[Name] {
  return strapi.plugin('speech').service(name) as Services[Name];
}
