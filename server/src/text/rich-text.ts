/**
 * Strapi blocks, markdown and HTML to narration text, through one HTML-to-text pass so the reading
 * rules are written once. The result is charged per character and hashed (fingerprint.ts), so it
 * must be deterministic: paragraphs joined by "\n\n", one line per list item or table row, single
 * spaces, NFC. Read for a listener: headings, items and rows end with a full stop so voices pause;
 * links read as text, never URLs; images and code blocks are dropped (code cannot be followed by ear).
 */
import { compile, type FormatCallback, type HtmlToTextOptions } from 'html-to-text';
import { Marked } from 'marked';
import type { SkippableBlock } from '../../../shared/contracts/settings';
import { ensureSentenceEnd, ensureSentenceEndPerLine, normaliseNarrationText } from './speakable';

/** Headings and quotes of the conversion in progress (set by collectBlocks), for chapters and quote voices. */
let blockSink: { headings: string[]; quotes: string[] } | null = null;

export function collectBlocks<T>(convert: () => T): { result: T; headings: string[]; quotes: string[] } {
  const sink = { headings: [] as string[], quotes: [] as string[] };
  blockSink = sink;
  try {
    return { result: convert(), ...sink };
  } finally {
    blockSink = null;
  }
}

function headingFormatter(): FormatCallback {
  return (elem, walk, builder) => {
    builder.openBlock({ leadingLineBreaks: 2 });
    walk(elem.children, builder);
    // A heading may contain <br>; every resulting line is its own spoken phrase.
    builder.closeBlock({
      trailingLineBreaks: 2,
      blockTransform: (block) => {
        const heading = ensureSentenceEndPerLine(block);
        blockSink?.headings.push(heading);
        return heading;
      },
    });
  };
}

/** A list item as its own block so it can be punctuated; punctuating is idempotent, so nested lists are safe. */
const listItemFormatter: FormatCallback = (elem, walk, builder) => {
  builder.openBlock({ leadingLineBreaks: 1 });
  walk(elem.children, builder);
  builder.closeBlock({ trailingLineBreaks: 1, blockTransform: ensureSentenceEndPerLine });
};

/** Read without the "> " prefix; its text is noted for the quote voice. */
const quoteFormatter: FormatCallback = (elem, walk, builder) => {
  builder.openBlock({ leadingLineBreaks: 2 });
  walk(elem.children, builder);
  builder.closeBlock({
    trailingLineBreaks: 2,
    blockTransform: (block) => {
      blockSink?.quotes.push(block);
      return block;
    },
  });
};

/** Row by row, "Cell, cell, cell.": column layout means nothing when heard. */
const tableFormatter: FormatCallback = (elem, walk, builder) => {
  builder.openTable();
  const walkTablePart = (node: (typeof elem.children)[number]): void => {
    if (node.type !== 'tag') return;
    switch (node.name) {
      case 'thead':
      case 'tbody':
      case 'tfoot':
        node.children.forEach(walkTablePart);
        return;
      case 'tr':
        builder.openTableRow();
        for (const cell of node.children) {
          if (cell.type !== 'tag' || (cell.name !== 'td' && cell.name !== 'th')) continue;
          builder.openTableCell();
          walk(cell.children, builder);
          builder.closeTableCell();
        }
        builder.closeTableRow();
        return;
      default:
        return; // captions and colgroups are not read
    }
  };
  elem.children.forEach(walkTablePart);
  builder.closeTable({
    leadingLineBreaks: 2,
    trailingLineBreaks: 2,
    tableToString: (rows) =>
      rows
        .map((row) =>
          row
            .map((cell) => cell.text.replace(/\s+/gu, ' ').trim())
            .filter((text) => text !== '')
            .join(', ')
        )
        .filter((line) => line !== '')
        .map(ensureSentenceEnd)
        .join('\n'),
  });
};

const SKIPPED_ELEMENTS = [
  'img',
  'picture',
  'svg',
  'video',
  'audio',
  'iframe',
  'object',
  'embed',
  'canvas',
  'map',
  'script',
  'style',
  'noscript',
  'template',
  'head',
  'title',
  'meta',
  'link',
  'pre', // code blocks: see the file comment
  'hr',
  'button',
  'input',
  'select',
  'textarea',
];

const ELEMENTS_OF_BLOCK: Readonly<Record<SkippableBlock, readonly string[]>> = {
  code: ['pre'],
  quote: ['blockquote'],
  image: ['figcaption'],
  table: ['table'],
};

const HTML_TO_TEXT_OPTIONS: HtmlToTextOptions = {
  wordwrap: false,
  decodeEntities: true,
  formatters: {
    narrationHeading: headingFormatter(),
    narrationListItem: listItemFormatter,
    narrationTable: tableFormatter,
    narrationQuote: quoteFormatter,
  },
  selectors: [
    // Links are read as their text: no URL, no brackets.
    { selector: 'a', options: { ignoreHref: true, linkBrackets: false } },
    ...['h1', 'h2', 'h3', 'h4', 'h5', 'h6'].map((selector) => ({ selector, format: 'narrationHeading' })),
    // The unordered bullet is a single space (an empty prefix would fall back to " * "); trimmed later.
    { selector: 'ul', options: { itemPrefix: ' ' } },
    { selector: 'li', format: 'narrationListItem' },
    // Loose lists (<li><p>) stay one line per paragraph, without blank lines inside the list.
    { selector: 'li > p', format: 'block', options: { leadingLineBreaks: 1, trailingLineBreaks: 1 } },
    { selector: 'table', format: 'narrationTable' },
    { selector: 'blockquote', format: 'narrationQuote' },
    { selector: 'figcaption', format: 'block', options: { leadingLineBreaks: 1, trailingLineBreaks: 1 } },
    ...SKIPPED_ELEMENTS.map((selector) => ({ selector, format: 'skip' })),
  ],
};

/** One compiled converter per set of skipped kinds (at most 2^4). */
const converters = new Map<string, (html: string) => string>();

function converterFor(skip: readonly SkippableBlock[]): (html: string) => string {
  const kinds = [...new Set(skip)].filter((kind) => kind in ELEMENTS_OF_BLOCK).sort();
  const key = kinds.join(',');
  let convert = converters.get(key);
  if (!convert) {
    const skipped = kinds.flatMap((kind) => ELEMENTS_OF_BLOCK[kind]);
    // A later selector for the same element replaces an earlier one in html-to-text.
    convert = compile({
      ...HTML_TO_TEXT_OPTIONS,
      selectors: [...(HTML_TO_TEXT_OPTIONS.selectors ?? []), ...skipped.map((selector) => ({ selector, format: 'skip' }))],
    });
    converters.set(key, convert);
  }
  return convert;
}

export function htmlToText(html: string, skip: readonly SkippableBlock[] = []): string {
  if (typeof html !== 'string' || html.trim() === '') return '';
  return normaliseNarrationText(converterFor(skip)(html));
}

/** A private instance: `marked.use()` elsewhere in the process must not change what is narrated. */
const markdownParser = new Marked({ gfm: true, breaks: false, async: false });

export function markdownToText(markdown: string, skip: readonly SkippableBlock[] = []): string {
  if (typeof markdown !== 'string' || markdown.trim() === '') return '';
  const html = markdownParser.parse(markdown, { async: false });
  return htmlToText(html, skip);
}

type BlockNode = Record<string, unknown>;

function isNode(value: unknown): value is BlockNode {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function looksLikeBlocks(value: unknown): value is BlockNode[] {
  return Array.isArray(value) && value.length > 0 && value.every((node) => isNode(node) && typeof node.type === 'string');
}

function childrenOf(node: BlockNode): unknown[] {
  return Array.isArray(node.children) ? node.children : [];
}

function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

function renderInline(node: unknown): string {
  if (!isNode(node)) return '';
  if (node.type === 'image') return '';
  // A soft line break (Shift+Enter) is stored as "\n" in the text; Strapi's renderer shows it as <br>.
  if (typeof node.text === 'string') return escapeHtml(node.text).replace(/\r?\n/g, '<br>');
  // 'link' and any unknown inline node: only the text of the children, never the URL.
  return childrenOf(node).map(renderInline).join('');
}

function renderListItem(item: BlockNode): string {
  // A list-item holds inline nodes, and in some documents a nested list of its own.
  const content = childrenOf(item)
    .map((child) => (isNode(child) && child.type === 'list' ? renderBlock(child) : renderInline(child)))
    .join('');
  return `<li>${content}</li>`;
}

/** Strapi stores a nested list as a sibling `list` node; it is moved into the preceding item, as it means. */
function renderList(list: BlockNode): string {
  const tag = list.format === 'ordered' ? 'ol' : 'ul';
  const items: string[] = [];
  for (const child of childrenOf(list)) {
    if (!isNode(child)) continue;
    if (child.type === 'list') {
      const nested = renderList(child);
      if (items.length > 0) items[items.length - 1] = items[items.length - 1].replace(/<\/li>$/, `${nested}</li>`);
      else items.push(`<li>${nested}</li>`);
    } else if (child.type === 'list-item') {
      items.push(renderListItem(child));
    } else {
      items.push(`<li>${renderInline(child)}</li>`);
    }
  }
  return `<${tag}>${items.join('')}</${tag}>`;
}

function renderBlock(node: unknown): string {
  if (!isNode(node)) return '';
  switch (node.type) {
    case 'paragraph':
      return `<p>${childrenOf(node).map(renderInline).join('')}</p>`;
    case 'heading': {
      const level = Math.min(6, Math.max(1, Math.trunc(Number(node.level)) || 2));
      return `<h${level}>${childrenOf(node).map(renderInline).join('')}</h${level}>`;
    }
    case 'list':
      return renderList(node);
    case 'quote':
      return `<blockquote>${childrenOf(node).map(renderInline).join('')}</blockquote>`;
    case 'code': // code blocks are not narrated, see the file comment
    case 'image': // images and their alt text are not narrated
      return '';
    default: {
      // Unknown node types (plugins, future Strapi versions): read whatever text they contain.
      if (typeof node.text === 'string') return `<p>${escapeHtml(node.text)}</p>`;
      const inner = childrenOf(node)
        .map((child) => (isInlineNode(child) ? renderInline(child) : renderBlock(child)))
        .join('');
      return `<div>${inner}</div>`;
    }
  }
}

function isInlineNode(node: unknown): boolean {
  return isNode(node) && (node.type === 'text' || node.type === 'link' || typeof node.text === 'string');
}

export function blocksToText(blocks: unknown, skip: readonly SkippableBlock[] = []): string {
  if (!Array.isArray(blocks)) return '';
  return htmlToText(blocks.map(renderBlock).join('\n'), skip);
}
