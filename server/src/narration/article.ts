import type { ContentTypeNarrationConfig } from '../config/schema';
import { narrationCost, type PreprocessType } from './cost';
import { narrationFingerprint } from './fingerprint';
import { applyLexicon, type LexiconRule } from './lexicon';
import { extractNarrationText } from './text';
import type { ContentVersion } from './jobs.repository';

/**
 * The article key sent to the service as `articleId`. Strapi 5 gives a published row a new numeric
 * id on every publish; documentId is stable, and shared by all locales of a document, so localized
 * types append the locale.
 */
export function articleKey(documentId: string, locale: string | null | undefined, localized: boolean): string {
  return localized && locale ? `${documentId}-${locale}` : documentId;
}

export interface ArticleSource {
  contentType: string;
  entry: Record<string, unknown> & { documentId: string; locale?: string | null };
  narration: Pick<ContentTypeNarrationConfig, 'titleField' | 'textFields'>;
  attributes?: Record<string, { type: string }>;
  localized: boolean;
  voiceId: string;
  preprocessType: PreprocessType;
  /** Pronunciation rules, applied before the cost and the fingerprint (so the estimate is what is paid). */
  lexicon?: readonly LexiconRule[];
}

/** What would be narrated for this entry, its cost and its fingerprint. Pure: no Strapi, no I/O. */
export function describeArticle(source: ArticleSource): ContentVersion & { text: string } {
  const locale = source.localized ? (source.entry.locale ?? null) : null;
  const text = applyLexicon(extractNarrationText(source.entry, source.narration, source.attributes), source.lexicon ?? [], locale);
  const { characters, credits } = narrationCost(text, source.preprocessType);
  const titleValue = source.narration.titleField ? source.entry[source.narration.titleField] : undefined;
  return {
    articleId: articleKey(source.entry.documentId, source.entry.locale, source.localized),
    contentType: source.contentType,
    documentId: source.entry.documentId,
    locale,
    title: typeof titleValue === 'string' && titleValue.trim() ? titleValue.trim() : source.entry.documentId,
    text,
    fingerprint: narrationFingerprint({ text, voiceId: source.voiceId, preprocessType: source.preprocessType }),
    voiceId: source.voiceId,
    preprocessType: source.preprocessType,
    characters,
    credits,
  };
}
