/** What controllers share: validation, ETags, CSV, status errors, speech-service errors as admin answers. */
export { csvLine } from './csv';
export { etagOf, notModified } from './etag';
export { editorMessage, rethrowForAdmin } from './speech-service-errors';
export { conflict, StatusError } from './status-error';
export { accepts, contentTypeUid, documentTarget, manyTarget, optionalLocale, parsesTo, validate } from './validate';
export { prefixMatcher, restPrefix, routeMatcher } from './router-paths';
