import type { ContentApiAuth } from '../../access';
import { getService } from '../../utils';

/** Null where the type is not narrated, the caller may not read it, or the entry has no live version. */
export async function entryNarration(
  uid: string,
  parent: { documentId?: string; locale?: string | null; publishedAt?: string | null },
  auth: ContentApiAuth | null
) {
  if (!parent?.documentId) return null;
  const row = await getService('narration-views').findVisibleForEntry(uid, { ...parent, documentId: parent.documentId }, auth);
  if (!row) return null;
  return getService('narration-views').json(row, parent as Record<string, unknown>);
}
