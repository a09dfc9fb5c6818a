/** Intro and outro: part of the narrated text, so counted in the cost and the fingerprint. */
import { ALL_LOCALES } from '../../../../shared/contracts/settings';
import { forLocale } from '../../voices';
import { ensureSentenceEnd, oneLine } from '../../text';

export const TEMPLATE_PLACEHOLDERS = ['title', 'author', 'site'] as const;
export type TemplateValues = Record<(typeof TEMPLATE_PLACEHOLDERS)[number], string>;

export const MAX_TEMPLATE_LENGTH = 500;

const PLACEHOLDER = /\{([^{}\s]*)\}/gu;
const isPlaceholder = (name: string) => (TEMPLATE_PLACEHOLDERS as readonly string[]).includes(name);

export function templateProblem(text: string): string | null {
  const unknown = [...text.matchAll(PLACEHOLDER)].map((match) => match[1]).filter((name) => !isPlaceholder(name));
  return unknown.length ? `{${unknown[0]}} is not a placeholder; use ${TEMPLATE_PLACEHOLDERS.map((name) => `{${name}}`).join(', ')}` : null;
}

export function templateFor(templates: Readonly<Record<string, string>> | undefined, locale: string | null | undefined): string | null {
  const chosen = forLocale(templates, locale) ?? templates?.[ALL_LOCALES] ?? null;
  return chosen && chosen.trim() ? chosen : null;
}

/** Null when it names a value the article lacks: "by {author}" is not read half. */
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
