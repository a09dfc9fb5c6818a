/** What an article means: its text, its cost, its public views and files. */
export type { ContentReader } from './content';
export { narrationFileUrl, narrationJson } from './domain/public-view';
export { frontEndUrl, placeholdersOf } from './domain/front-end-url';
export { redirectToFile } from './file-redirect';
export type { NarrationViews } from './narration-views.service';
