/** What an article means: its text, its cost, its public views and files. */
export type { ContentReader } from './content';
export { narrationFileUrl, narrationJson } from './domain/public-view';
export { redirectToFile } from './file-redirect';
export type { NarrationViews } from './narration-views.service';
