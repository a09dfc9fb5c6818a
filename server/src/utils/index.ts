import type { ServiceName, Services } from '../services';

/**
 * One of the plugin's services, typed by its factory in services/index.ts (as Strapi's own plugins
 * do it: i18n's `getService`). A type-only import, erased from the build: utils/ depends on no
 * feature at run time.
 */
export function getService<Name extends ServiceName>(name: Name): Services[Name] {
  return strapi.plugin('speech').service(name) as Services[Name];
}
