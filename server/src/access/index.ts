/** RBAC actions and route policies, Content Manager permissions on documents, the content API's read rule. */
export type { ContentApiAccess, ContentApiAuth } from './content-api-access';
export { ensureMayActOn, permittedDocuments, refusal } from './document-guard';
export { coversLocale, type DocumentAction, documentKey, type DocumentPermissions, type TypeAccess } from './document-permissions';
export { adminOnly, adminRoute, type PluginRoute, publicRoute } from './permissions';
export { type ContentTypeFacts, readableRows, type RowDocument } from './readable-rows';
