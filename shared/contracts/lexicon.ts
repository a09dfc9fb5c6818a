/**
 * The pronunciation lexicon's admin routes (server/src/lexicon): hear a rule, see what the saved
 * lexicon would change. The rules themselves are saved with the settings (settings.ts).
 */
import type { ManyTarget } from './common';

/** A pronunciation rule as the server keeps it (narration/domain/lexicon.ts): `term` is read as `spoken`. */
export interface LexiconRule {
  term: string;
  spoken: string;
  /** A locale code, or null for every locale. */
  locale: string | null;
  wholeWord: boolean;
  caseSensitive: boolean;
  /** Arabic: match the term with or without its short vowels. */
  ignoreDiacritics: boolean;
  /** Arabic: alif, ya and ta marbuta forms match each other. */
  letterVariants: boolean;
}

/** A rule as the settings route accepts it: every switch left out takes its default. */
export type LexiconRuleInput = Pick<LexiconRule, 'term' | 'spoken'> & Partial<Omit<LexiconRule, 'term' | 'spoken'>>;

/** How many published documents one page of POST /speech/lexicon/affected looks through. */
export const LEXICON_AFFECTED_PAGE_SIZE = { default: 25, max: 50 } as const;

/** POST /speech/lexicon/hear -> audio/mpeg: the spoken form, in the given voice or the voice of the rule's locale. */
export interface HearLexiconRuleRequest {
  body: { rule: Pick<LexiconRuleInput, 'spoken' | 'locale'>; voiceId?: string };
}

/**
 * POST /speech/lexicon/affected: of one page of a type's published documents, those the current
 * lexicon would change since their last narration, and what narrating them again would cost.
 */
export interface LexiconAffectedRequest {
  body: Pick<ManyTarget, 'contentType' | 'locale'> & { page?: number; pageSize?: number };
}

/** `total` and `pageCount` count the published documents looked through, not the affected ones. */
export interface LexiconAffectedResponse {
  items: Array<{ documentId: string; locale: string | null; articleId: string; title: string | null; characters: number; credits: number }>;
  totalCredits: number;
  page: number;
  pageSize: number;
  pageCount: number;
  total: number;
  /** Documents of the page the caller may not read (left out). */
  refused: number;
}
