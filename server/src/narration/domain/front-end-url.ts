/** An entry's page on the site, from its type's `url` template: `https://example.com/news/{slug}`, `{locale}` and scalar fields. */

const PLACEHOLDER = /\{([A-Za-z_][A-Za-z0-9_]*)\}/g;

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Attribute types whose value reads as one path or query segment. */
const URL_FIELD_TYPES: ReadonlySet<string> = new Set(['string', 'uid', 'text', 'email', 'integer', 'biginteger', 'enumeration', 'date']);

export function placeholdersOf(template: string): string[] {
  return [...template.matchAll(PLACEHOLDER)].map((match) => match[1]);
}

/** Null when the template is an http(s) URL once its placeholders are filled, else why not. */
export function urlTemplateProblem(template: string): string | null {
  const sample = template.replace(PLACEHOLDER, 'x');
  if (/[{}]/.test(sample)) return 'must name fields as {field}, letters, digits and _ only';
  try {
    const url = new URL(sample);
    if (url.protocol !== 'https:' && url.protocol !== 'http:') return 'must be an http(s) URL';
  } catch {
    return 'must be an http(s) URL such as https://example.com/news/{slug}';
  }
  return null;
}

/** What the template may read of a type: `locale`, `documentId` and its scalar, non-private fields. */
export function urlFieldProblem(
  attributes: Record<string, { type: string; private?: boolean }>,
  field: string,
  isPrivate: (field: string) => boolean
): string | null {
  if (field === 'locale' || field === 'documentId') return null;
  const attribute = Object.prototype.hasOwnProperty.call(attributes, field) ? attributes[field] : undefined;
  if (!attribute) return `has no field "${field}"`;
  if (attribute.private || isPrivate(field) || attribute.type === 'password') return `"${field}" is a private field`;
  if (!URL_FIELD_TYPES.has(attribute.type)) return `"${field}" is a ${attribute.type} field, which cannot be part of a URL`;
  return null;
}

/** The entry's URL; null while a field it names is empty (a link is never guessed). */
export function frontEndUrl(template: string | undefined, entry: Record<string, unknown>, locale: string | null): string | null {
  if (!template) return null;
  let missing = false;
  const url = template.replace(PLACEHOLDER, (_match, field: string) => {
    const value = field === 'locale' ? locale : entry[field];
    if (value === null || value === undefined || value === '') {
      missing = true;
      return '';
    }
    return encodeURIComponent(String(value));
  });
  return missing ? null : url;
}

/** The placeholders' values when `url` is one the template makes (scheme, host and path alike; query and hash ignored past the template's). */
export function matchFrontEndUrl(template: string, url: string): Record<string, string> | null {
  const names: string[] = [];
  const pattern = template
    .split(PLACEHOLDER)
    .map((piece, index) => {
      if (index % 2 === 1) {
        names.push(piece);
        return '([^/?#]+)';
      }
      return escapeRegExp(piece);
    })
    .join('');
  const match = new RegExp(`^${pattern}(?:[?#].*)?$`, 'i').exec(url);
  if (!match) return null;
  const values: Record<string, string> = {};
  try {
    names.forEach((name, index) => (values[name] = decodeURIComponent(match[index + 1]!)));
  } catch {
    return null;
  }
  return values;
}
