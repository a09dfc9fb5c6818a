/**
 * An article's text from its entry: each field read by its attribute type (rich-text.ts), the
 * title first, paragraphs in the canonical layout (speakable.ts). Pure: no Strapi, no I/O.
 */
import type { SkippableBlock } from '../../../shared/contracts/settings';
import { blocksToText, collectBlocks, htmlToText, looksLikeBlocks, markdownToText } from './rich-text';
import { ensureSentenceEnd, normaliseNarrationText } from './speakable';

// ---------------------------------------------------------------------------------------------
// Plain text

/** A plain text attribute ('string', 'text', ...): kept as written, whitespace normalised. */
export function plainToText(text: string): string {
  if (typeof text !== 'string') return '';
  return normaliseNarrationText(text);
}

// ---------------------------------------------------------------------------------------------
// Fields

/**
 * Common HTML element names. Only these count as "HTML" when sniffing a string, so that prose
 * such as "if a<b and c>d" is not mistaken for markup and lose its words.
 */
const HTML_TAG =
  /<\/?(?:p|div|span|br|hr|a|b|i|u|s|em|strong|small|mark|sub|sup|del|ins|code|pre|blockquote|q|cite|h[1-6]|ul|ol|li|dl|dt|dd|table|thead|tbody|tfoot|tr|td|th|caption|img|figure|figcaption|picture|video|audio|iframe|section|article|aside|header|footer|main|nav|script|style)(?:\s[^<>]*)?\/?>/i;

export function looksLikeHtml(text: string): boolean {
  return HTML_TAG.test(text);
}

/** Attribute types whose values are written as plain text in the admin (no markup is rendered). */
const PLAIN_TEXT_TYPES = new Set(['string', 'text', 'email', 'uid', 'enumeration']);
/** Attribute types never narrated, even when listed: secrets, and values that are not prose. */
const NEVER_NARRATED_TYPES = new Set(['password']);

/**
 * One field's narration text, chosen by attribute type when known, otherwise by the value:
 * - 'blocks' -> blocks; 'richtext' -> markdown;
 * - plain types ('string', 'text', ...) -> as written, unless they contain HTML tags (some sites
 *   store HTML in text fields; reading the tags aloud would be worse);
 * - other or unknown types (custom fields such as HTML editors, 'json'): an array of blocks ->
 *   blocks, a string with HTML tags -> HTML, any other string -> markdown;
 * - anything else (numbers, media, relations, components, null) -> ''.
 */
export function fieldToText(value: unknown, attributeType?: string, skip: readonly SkippableBlock[] = []): string {
  if (attributeType !== undefined && NEVER_NARRATED_TYPES.has(attributeType)) return '';
  if (attributeType === 'blocks') return blocksToText(value, skip);
  if (typeof value !== 'string') return looksLikeBlocks(value) ? blocksToText(value, skip) : '';
  if (attributeType === 'richtext') return markdownToText(value, skip);
  if (looksLikeHtml(value)) return htmlToText(value, skip);
  if (attributeType !== undefined && PLAIN_TEXT_TYPES.has(attributeType)) return plainToText(value);
  return markdownToText(value, skip);
}

// ---------------------------------------------------------------------------------------------
// Entries

export interface NarrationFields {
  titleField?: string;
  textFields: string[];
  /** Kinds of block not read in any of the fields (none: today's reading). */
  skipBlocks?: readonly SkippableBlock[];
}

/** The text to narrate and which of its paragraphs (0-based) are headings, and quotes, of the article's fields. */
export interface ExtractedNarration {
  text: string;
  headingParagraphs: number[];
  quoteParagraphs: number[];
}

/** The paragraphs of a text in the canonical layout (see normaliseNarrationText); none for ''. */
export const paragraphsOf = (text: string): string[] => (text === '' ? [] : text.split('\n\n'));

/**
 * The text to narrate for an entry: the title (one line, ending in punctuation) as the first
 * paragraph, then each text field in the configured order. Fields that are missing, not text,
 * or empty after conversion are skipped; a text field equal to the title field is not read
 * twice. An entry with nothing to read gives ''. The paragraphs that are headings are listed
 * (the title is not one of them), found in order among the paragraphs of their own field.
 */
export function extractNarration(
  entry: Record<string, unknown>,
  fields: NarrationFields,
  attributes?: Record<string, { type: string }>
): ExtractedNarration {
  const parts: string[] = [];
  const headingParagraphs: number[] = [];
  const quoteParagraphs: number[] = [];
  let paragraphCount = 0;

  const title = fields.titleField !== undefined ? entry[fields.titleField] : undefined;
  if (typeof title === 'string') {
    const titleLine = normaliseNarrationText(title).replace(/\s+/gu, ' ');
    if (titleLine !== '') {
      parts.push(ensureSentenceEnd(titleLine));
      paragraphCount = 1;
    }
  }

  const seen = new Set<string>(fields.titleField !== undefined ? [fields.titleField] : []);
  for (const field of fields.textFields) {
    if (seen.has(field)) continue;
    seen.add(field);
    if (!Object.prototype.hasOwnProperty.call(entry, field)) continue;
    const { result: text, headings, quotes } = collectBlocks(() => fieldToText(entry[field], attributes?.[field]?.type, fields.skipBlocks));
    if (text === '') continue;
    const paragraphs = paragraphsOf(text);
    /** Where each of `marked` is among the field's paragraphs, in order (a block's text is found from where the last one was). */
    const found = (marked: string[]) => {
      const at: number[] = [];
      let next = 0;
      for (const paragraph of marked) {
        const index = paragraphs.indexOf(paragraph, next);
        if (index < 0) continue;
        at.push(paragraphCount + index);
        next = index + 1;
      }
      return at;
    };
    headingParagraphs.push(...found(headings.map(normaliseNarrationText)));
    // A quote may hold several paragraphs: each is a quote.
    quoteParagraphs.push(...found(quotes.flatMap((quote) => paragraphsOf(normaliseNarrationText(quote)))));
    parts.push(text);
    paragraphCount += paragraphs.length;
  }

  // Every part is already in the canonical layout, so normalising keeps its paragraphs where they are.
  return { text: normaliseNarrationText(parts.join('\n\n')), headingParagraphs, quoteParagraphs };
}

/**
 * The paragraphs of a narration text (as extractNarration lays it out: the title line first,
 * then blank-line separated paragraphs), for "listen to this paragraph" in the edit view.
 */
export function narrationParagraphs(text: string): string[] {
  return normaliseNarrationText(text)
    .split(/\n{2,}/u)
    .map((paragraph) => paragraph.trim())
    .filter((paragraph) => paragraph !== '');
}
