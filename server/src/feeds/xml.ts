/** A tiny XML writer. Characters XML 1.0 cannot carry are stripped: a stray control character must not break the feed. */

export interface XmlElement {
  name: string;
  attributes?: Record<string, string | number | undefined | null>;
  children?: Array<XmlElement | string | null | undefined | false>;
}

const NOT_XML =
  // eslint-disable-next-line no-control-regex
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' };

export function escapeXml(text: string): string {
  return text.replace(NOT_XML, '').replace(/[&<>"']/g, (char) => ENTITIES[char]!);
}

export function element(
  name: string,
  attributes?: XmlElement['attributes'],
  children?: XmlElement['children'] | string | number | null
): XmlElement {
  if (children === null || children === undefined) return { name, attributes };
  return { name, attributes, children: Array.isArray(children) ? children : [String(children)] };
}

function render(node: XmlElement, depth: number, out: string[]): void {
  const pad = '  '.repeat(depth);
  const attributes = Object.entries(node.attributes ?? {})
    .filter(([, value]) => value !== undefined && value !== null)
    .map(([key, value]) => ` ${key}="${escapeXml(String(value))}"`)
    .join('');
  const children = (node.children ?? []).filter((child): child is XmlElement | string => Boolean(child) || child === '');
  if (children.length === 0) {
    out.push(`${pad}<${node.name}${attributes}/>`);
  } else if (children.every((child) => typeof child === 'string')) {
    out.push(`${pad}<${node.name}${attributes}>${children.map((child) => escapeXml(child as string)).join('')}</${node.name}>`);
  } else {
    out.push(`${pad}<${node.name}${attributes}>`);
    for (const child of children) {
      if (typeof child === 'string') out.push(`${pad}  ${escapeXml(child)}`);
      else render(child, depth + 1, out);
    }
    out.push(`${pad}</${node.name}>`);
  }
}

export function renderXmlDocument(root: XmlElement): string {
  const out = ['<?xml version="1.0" encoding="UTF-8"?>'];
  render(root, 0, out);
  return `${out.join('\n')}\n`;
}
