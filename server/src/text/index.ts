/**
 * The text that is narrated for an article, and the small text rules other modules share:
 * speakable.ts (sentence ends, whitespace, invisible characters), rich-text.ts (Strapi blocks,
 * markdown and HTML through one HTML-to-text pass), entries.ts (a field by its attribute type,
 * an article's fields in order, its paragraphs), segments.ts and cut-points.ts (the parts of a
 * segmented narration). Pure: no Strapi, no I/O.
 */
export { ensureSentenceEnd, normaliseNarrationText, oneLine } from './speakable';
export { cutSegments } from './segments';
export { blocksToText, htmlToText, looksLikeBlocks, markdownToText } from './rich-text';
export {
  extractNarration,
  fieldToText,
  looksLikeHtml,
  narrationParagraphs,
  paragraphsOf,
  plainToText,
  type ExtractedNarration,
  type NarrationFields,
} from './entries';
