/** The narrated text of an article and the shared text rules. Pure: no Strapi, no I/O. */
export { ensureSentenceEnd, normaliseNarrationText, oneLine } from './speakable';
export { cutSegments } from './segments';
export { blocksToText, htmlToText, markdownToText } from './rich-text';
export { extractNarration, fieldToText, narrationParagraphs, paragraphsOf, type NarrationFields } from './entries';
