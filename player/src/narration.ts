/** The fields of the narration JSON the player reads; `title` only when the server sends one. */
export interface Narration {
  articleId: string;
  locale: string | null;
  status: string;
  audioUrl: string | null;
  vttUrl: string | null;
  chaptersUrl: string | null;
  durationSeconds: number | null;
  title?: string | null;
  voice?: string | null;
  /** Absent from an older server: the player's own words; null: the site turned it off. */
  aiLabel?: string | null;
  /** The article's page on the site (its type's `url`). */
  pageUrl?: string | null;
  revisions?: Array<{ at: string; cause: string; changed: Array<{ start: number; end: number }> }>;
}
