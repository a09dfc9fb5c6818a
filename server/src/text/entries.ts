/** An article's text from its entry: each field read by its attribute type, the title first. */
import type { SkippableBlock } from '../../../shared/contracts/settings';
import { blocksToText, collectBlocks, htmlToText, looksLikeBlocks, markdownToText } from './rich-text';
import { ensureSentenceEnd, normaliseNarrationText } from './speakable';

export function plainToText(text: string): string {
  if (typeof text !== 'string') return '';
  return normaliseNarrationText(text);
}

/** Only common tag names count as HTML, so prose like "if a<b and c>d" keeps its words. */
const HTML_TAG =
  /<\/?(?:p|div|span|br|hr|a|b|i|u|s|em|strong|small|mark|sub|sup|del|ins|code|pre|blockquote|q|cite|h[1-6]|ul|ol|li|dl|dt|dd|table|thead|tbody|tfoot|tr|td|th|caption|img|figure|figcaption|picture|video|audio|iframe|section|article|aside|header|footer|main|nav|script|style)(?:\s[^<>]*)?\/?>/i;

export function looksLikeHtml(text: string): boolean {
  return HTML_TAG.test(text);
}

/** Written as plain text in the admin (no markup is rendered). */
const PLAIN_TEXT_TYPES = new Set(['string', 'text', 'email', 'uid', 'enumeration']);
/** Never narrated, even when listed: secrets. */
const NEVER_NARRATED_TYPES = new Set(['password']);

/**
 * By attribute type when known, else by the value. Plain types holding HTML tags are read as HTML
 * (some sites store HTML in text fields; reading tags aloud would be worse).
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

export interface NarrationFields {
  titleField?: string;
  textFields: string[];
  /** Kinds of block not read in any of the fields. */
  skipBlocks?: readonly SkippableBlock[];
}

/** Heading and quote paragraphs are 0-based indexes into the text's paragraphs. */
export interface ExtractedNarration {
  text: string;
  headingParagraphs: number[];
  quoteParagraphs: number[];
}

export const paragraphsOf = (text: string): string[] => (text === '' ? [] : text.split('\n\n'));

/** The title as the first paragraph, then each text field once, in order; headings exclude the title. */
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
    /** Each block is searched from where the last was found, so repeated text maps in order. */
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

  // Every part is already canonical, so normalising keeps its paragraphs where they are.
  return { text: normaliseNarrationText(parts.join('\n\n')), headingParagraphs, quoteParagraphs };
}

/** For "listen to this paragraph" in the edit view. */
export function narrationParagraphs(text: string): string[] {
  return normaliseNarrationText(text)
    .split(/\n{2,}/u)
    .map((paragraph) => paragraph.trim())
    .filter((paragraph) => paragraph !== '');
}
