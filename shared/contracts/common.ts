/**
 * What several features' admin routes share: the document an action targets, a Media Library
 * file, the queue's state, a validation problem. Plain types and constants only: the admin bundle
 * and the server both import this folder, so it depends on nothing (no Strapi, no zod).
 */

/** How figures by locale (credits, listening) name a type that is not localized. */
export const NO_LOCALE_KEY = 'none';

/** One document, in one locale (null or left out: the type is not localized, or every locale). */
export interface DocumentTarget {
  contentType: string;
  documentId: string;
  locale?: string | null;
}

/** Several documents of one type, in one locale (the bulk action). */
export interface ManyTarget {
  contentType: string;
  documentIds: string[];
  locale?: string | null;
}

/** A Media Library file as the admin plays or links it (a private bucket's URL is signed for the admin). */
export interface MediaRef {
  id: number;
  url: string;
}

/** Queue-wide state: a 402 or a rejected key pauses every submission, not one article. */
export interface QueueState {
  paused: boolean;
  pausedUntil: string | null;
  pauseCode: string | null;
  pauseReason: string | null;
  creditsRemaining: number | null;
  creditsRequired: number | null;
  creditsSeenAt: string | null;
}

/** One refused value of a form, where it is (`['contentTypes', uid, 'textFields']`) and what is wrong. */
export interface FieldError {
  path: ReadonlyArray<string | number>;
  message: string;
}
