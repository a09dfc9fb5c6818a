/**
 * What an entry of the list is called in the plugin's dialogs. The content manager hands a bulk
 * action the list's rows without saying which field is the entry's main one, so the usual names
 * are tried in order; the document id when none is a non-empty string. Pure: unit-tested.
 */
const LABEL_FIELDS = ['title', 'name', 'label', 'heading', 'subject', 'slug'] as const;

export function documentLabel(document: { documentId: string; [field: string]: unknown }): string {
  for (const field of LABEL_FIELDS) {
    const value = document[field];
    if (typeof value === 'string' && value.trim()) return value.trim();
  }
  return document.documentId;
}
