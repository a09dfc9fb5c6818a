/**
 * Intro and outro: short texts read before and after an article, per locale, with placeholders
 * `{title}`, `{author}` (a field chosen per type) and `{site}` (`siteName`). They are part of the
 * narrated text, so they are counted in the cost and the fingerprint like any other sentence.
 *
 * Pure: no Strapi, no I/O.
 */
import { ALL_LOCALES } from '../../../../shared/contracts/settings';
import { forLocale } from '../../voices';
import { ensureSentenceEnd, oneLine } from '../../text';

export const TEMPLATE_PLACEHOLDERS = ['title', 'author', 'site'] as const;
export type TemplateValues = Record<(typeof TEMPLATE_PLACEHOLDERS)[number], string>;

/** Every locale, for the templates map: used where an article's locale has no template of its own. */
export const MAX_TEMPLATE_LENGTH = 500;

const PLACEHOLDER = /\{([^{}\s]*)\}/gu;
const isPlaceholder = (name: string) => (TEMPLATE_PLACEHOLDERS as readonly string[]).includes(name);

/** Why a template cannot be used (a placeholder it does not know), or null. */
export function templateProblem(text: string): string | null {
  const unknown = [...text.matchAll(PLACEHOLDER)].map((match) => match[1]).filter((name) => !isPlaceholder(name));
  return unknown.length ? `{${unknown[0]}} is not a placeholder; use ${TEMPLATE_PLACEHOLDERS.map((name) => `{${name}}`).join(', ')}` : null;
}

/** The template for an article's locale: its own, its language's, else the one for every locale. */
export function templateFor(templates: Readonly<Record<string, string>> | undefined, locale: string | null | undefined): string | null {
  const chosen = forLocale(templates, locale) ?? templates?.[ALL_LOCALES] ?? null;
  return chosen && chosen.trim() ? chosen : null;
}

/**
 * The template with its placeholders filled, as one spoken line ending in punctuation; null when
 * it names a value the article does not have (an intro "by {author}" is not read without an
 * author rather than read half).
 */
export function fillTemplate(text: string | null, values: TemplateValues): string | null {
  if (!text) return null;
  let missing = false;
  const filled = text.replace(PLACEHOLDER, (whole, name: string) => {
    if (!isPlaceholder(name)) return whole;
    const value = oneLine(values[name as keyof TemplateValues]);
    if (!value) missing = true;
    return value;
  });
  const line = oneLine(filled);
  return missing || !line ? null : ensureSentenceEnd(line);
}
