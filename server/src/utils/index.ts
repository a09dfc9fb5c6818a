/** Small helpers every feature may use. Other features import them from here. */
export { addToTotals } from './add-to-totals';
export { createBackgroundLoop, newOwnerId } from './background-loop';
export { boundedMap } from './bounded-map';
export { contentTypeUidKey, httpUrl, localeCode } from './config-values';
export { contentTypeSchema, defaultLocaleOf, documentsOf, hasDraftAndPublishSchema, isLocalizedSchema } from './content-type-lookup';
export { createDispatcherLease, type DispatcherLease } from './dispatcher-lease';
export { createFailureEpisodes } from './failure-episodes';
export { createLimiter } from './limiter';
export { createPendingWork } from './pending-work';
export { safeFileName, splitExtension } from './safe-file-name';
export { withSavepoint } from './savepoint';
export { createSerialRunner } from './serial-runner';
export { writeStamp } from './write-stamp';

/**
 * The plugin's services by registry name, each typed by its factory. Declared empty here and filled
 * in by services/index.ts from its table (module augmentation): the registry the whole plugin
 * looks services up in imports nothing of the features, not even their types.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- filled in by services/index.ts
export interface ServiceRegistry {}

/** One of the plugin's services, typed by its factory in services/index.ts (as Strapi's own plugins do it: i18n's `getService`). */
export function getService<Name extends keyof ServiceRegistry>(name: Name): ServiceRegistry[Name] {
  return strapi.plugin('speech').service(name) as ServiceRegistry[Name];
}
