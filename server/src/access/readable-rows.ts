import { documentKey, type DocumentAction, type DocumentPermissions, type DocumentRef } from './document-permissions';

export interface ContentTypeFacts {
  exists(uid: string): boolean;
  isLocalized(uid: string): boolean;
}

export interface RowDocument extends DocumentRef {
  contentType: string;
}

/**
 * As the Content Manager's list view decides (`read`, or each of `actions` in turn); rows about no
 * document or a removed type are left out.
 */
export async function readableRows<Row>(
  deps: { permissions: Pick<DocumentPermissions, 'permitted'>; types: ContentTypeFacts },
  userAbility: unknown,
  rows: readonly Row[],
  documentOf: (row: Row) => RowDocument | null,
  actions: readonly DocumentAction[] = ['read']
): Promise<Row[]> {
  const byType = new Map<string, Array<{ row: Row; target: DocumentRef }>>();
  for (const row of rows) {
    const document = documentOf(row);
    if (!document || !deps.types.exists(document.contentType)) continue;
    // A type without locales has one version per document, whatever locale a row carries.
    const locale = deps.types.isLocalized(document.contentType) ? document.locale : null;
    const typeRows = byType.get(document.contentType) ?? [];
    typeRows.push({ row, target: { documentId: document.documentId, locale } });
    byType.set(document.contentType, typeRows);
  }
  const kept = new Set<Row>();
  for (const [uid, typeRows] of byType) {
    let remaining = typeRows;
    for (const action of actions) {
      const targets = new Map(remaining.map(({ target }) => [documentKey(target.documentId, target.locale), target]));
      const allowed = await deps.permissions.permitted(userAbility, uid, [...targets.values()], action);
      remaining = remaining.filter(({ target }) => allowed.has(documentKey(target.documentId, target.locale)));
    }
    for (const { row } of remaining) kept.add(row);
  }
  return rows.filter((row) => kept.has(row));
}
