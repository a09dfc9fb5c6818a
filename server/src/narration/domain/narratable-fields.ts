/**
 * A narration is public (its SRT is the whole text) and goes to a third party: it reads only what the
 * content API would show, text fields of `api::` types, never a private field or a password.
 */
import { placeholdersOf, urlFieldProblem } from './front-end-url';

export const NARRATABLE_FIELD_TYPES: ReadonlySet<string> = new Set(['string', 'text', 'richtext', 'blocks']);

export interface AttributeLike {
  type: string;
  private?: boolean;
}

export interface ModelLike {
  attributes: Record<string, AttributeLike>;
}

export interface NarratedFieldsConfig {
  titleField?: string;
  textFields: string[];
  authorField?: string;
  url?: string;
  summary?: { field: string };
}

export interface FieldProblem {
  path: string[];
  message: string;
}

export function fieldProblem(model: ModelLike, field: string, isPrivate: (field: string) => boolean): string | null {
  const attribute = Object.prototype.hasOwnProperty.call(model.attributes, field) ? model.attributes[field] : undefined;
  if (!attribute) return `has no field "${field}"`;
  if (attribute.type === 'password') return `"${field}" is a password and is never narrated`;
  if (attribute.private || isPrivate(field)) return `"${field}" is a private field and is never narrated`;
  if (!NARRATABLE_FIELD_TYPES.has(attribute.type)) {
    return `"${field}" is a ${attribute.type} field; only text fields (${[...NARRATABLE_FIELD_TYPES].join(', ')}) are narrated`;
  }
  return null;
}

export function narrationConfigProblems(
  uid: string,
  model: ModelLike | undefined,
  narration: NarratedFieldsConfig,
  isPrivate: (field: string) => boolean
): FieldProblem[] {
  const at = (...rest: string[]) => ['contentTypes', uid, ...rest];
  if (!uid.startsWith('api::')) {
    return [{ path: at(), message: `${uid}: only content types of the site (api::…) can be narrated` }];
  }
  if (!model) return [{ path: at(), message: `${uid}: unknown content type` }];
  const problems: FieldProblem[] = [];
  for (const key of ['titleField', 'authorField'] as const) {
    const field = narration[key];
    if (field === undefined) continue;
    const problem = fieldProblem(model, field, isPrivate);
    if (problem) problems.push({ path: at(key), message: `${uid} ${problem}` });
  }
  narration.textFields.forEach((field, index) => {
    const problem = fieldProblem(model, field, isPrivate);
    if (problem) problems.push({ path: at('textFields', String(index)), message: `${uid} ${problem}` });
  });
  if (narration.summary) {
    const problem = fieldProblem(model, narration.summary.field, isPrivate);
    if (problem) problems.push({ path: at('summary', 'field'), message: `${uid} ${problem}` });
  }
  for (const field of narration.url ? placeholdersOf(narration.url) : []) {
    const problem = urlFieldProblem(model.attributes, field, isPrivate);
    if (problem) problems.push({ path: at('url'), message: `${uid} ${problem}` });
  }
  return problems;
}

/** A second line of defence: a content type can change after its settings were saved. */
export function narratableFields<T extends NarratedFieldsConfig>(model: ModelLike, narration: T, isPrivate: (field: string) => boolean): T {
  const allowed = (field: string) => fieldProblem(model, field, isPrivate) === null;
  return {
    ...narration,
    titleField: narration.titleField !== undefined && allowed(narration.titleField) ? narration.titleField : undefined,
    authorField: narration.authorField !== undefined && allowed(narration.authorField) ? narration.authorField : undefined,
    textFields: narration.textFields.filter(allowed),
  };
}
