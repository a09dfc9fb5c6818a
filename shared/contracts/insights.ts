/**
 * Listening insights (server/src/insights): what the player reports, and what editors
 * read. Plain types and constants, imported by the server, the admin and the player alike.
 *
 * Nothing here identifies a listener: the server counts a listener once per article and day by a
 * hash of a salt it deletes the next day, and stores only daily totals per article and locale.
 */
import type { DocumentTarget } from './common';

/** The share of the audio at which the player reports progress; 100 is the end. */
export const LISTENING_MILESTONES = [10, 20, 30, 40, 50, 60, 70, 80, 90, 100] as const;
export type ListeningMilestone = (typeof LISTENING_MILESTONES)[number];

/**
 * What the player sends (POST /api/speech/insights/events, public), one event per request, as a
 * JSON text (`navigator.sendBeacon` with a string: `text/plain`, so no CORS preflight):
 * - `play`: a listening began (the first play after the page loaded, or after the end);
 * - `progress`: playing passed `percent` of the audio (10 to 90), each once per listening;
 * - `end`: the audio played to its end (counts as reaching 100 %);
 * - `pause`: the listener paused or left the page; carries only the seconds heard.
 * `heard` is the seconds actually played since the previous event of this listening.
 */
export const LISTENING_EVENT_TYPES = ['play', 'progress', 'end', 'pause'] as const;
export type ListeningEventType = (typeof LISTENING_EVENT_TYPES)[number];

export interface ListeningEvent {
  /** The narration's public id, as `<speech-narration article-id>` has it (`DOC_ID-en`). */
  articleId: string;
  event: ListeningEventType;
  /** For `progress` only: 10, 20, ... 90. */
  percent?: number;
  /** Seconds heard since the previous event, 0 to 3600. */
  heard: number;
}

/** The largest event body the route accepts, in bytes (an event is well under 200). */
export const LISTENING_EVENT_MAX_BYTES = 1024;

/** The public route the player posts events to, under Strapi's `/api`. */
export const LISTENING_EVENTS_PATH = '/speech/insights/events';

/** Listening totals of a day, an article or a range. */
export interface ListeningTotals {
  /** Listenings begun in the player. */
  plays: number;
  /** Distinct listeners per article and day, summed over the days (one person on two days counts twice: nothing links days). */
  listeners: number;
  /** How many listenings reached 10 %, 20 %, ... 100 % (LISTENING_MILESTONES, in order). */
  reached: number[];
  /** Seconds of audio heard in the player. */
  secondsHeard: number;
  /** Feed enclosure downloads by the IAB rules a redirecting server can apply; apart from plays. */
  downloads: number;
}

export interface ListeningDay extends ListeningTotals {
  /** YYYY-MM-DD, UTC. */
  day: string;
}

/** GET /speech/insights/document/:documentId?contentType=&locale=&days= (the Content Manager's read on it). */
export interface GetDocumentInsightsResponse {
  articleId: string;
  /** The first and last day counted, YYYY-MM-DD (UTC). */
  from: string;
  to: string;
  totals: ListeningTotals;
  /** Every day of the range, oldest first, zeros included. */
  days: ListeningDay[];
}

export interface ListenedArticle extends Required<DocumentTarget>, ListeningTotals {
  articleId: string;
  title: string | null;
}

export interface ListenedLocale extends ListeningTotals {
  /** The narration's locale; `none` for a type that is not localized. */
  locale: string;
}

/**
 * GET /speech/insights?days=7|30|90: the articles the caller may read in the Content Manager, and
 * only those, counted into every figure.
 */
export interface GetInsightsResponse {
  from: string;
  to: string;
  totals: ListeningTotals;
  /** Every day of the range, oldest first, zeros included. */
  days: ListeningDay[];
  /** The most played articles, most first (at most 20). */
  topArticles: ListenedArticle[];
  byLocale: ListenedLocale[];
}

/** The columns of GET /speech/insights/listening.csv (one row per article and day), in order. */
export const LISTENING_CSV_COLUMNS = [
  'day',
  'contentType',
  'documentId',
  'locale',
  'title',
  'articleId',
  'plays',
  'listeners',
  ...LISTENING_MILESTONES.map((milestone) => `reached${milestone}` as const),
  'secondsHeard',
  'downloads',
] as const;
