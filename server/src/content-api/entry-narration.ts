import type { Core } from '@strapi/strapi';
import type { ContentApiAuth } from '../access/content-api-access';
import { narrationJson } from '../narration/public-view';
import { narrationService } from '../services';

/**
 * The narration of one entry as a content-API caller may see it (GraphQL's `narration` field,
 * REST's `?narration=true`): null where the type is not narrated, the caller may not read the
 * type, or the entry has no live version.
 */
export async function entryNarration(
  strapi: Core.Strapi,
  uid: string,
  parent: { documentId?: string; locale?: string | null; publishedAt?: string | null },
  auth: ContentApiAuth | null
) {
  if (!parent?.documentId) return null;
  const service = narrationService(strapi);
  if (!(await service.settings.get()).contentTypes[uid]) return null;
  const articleId = service.articleIdFor(uid, parent.documentId, parent.locale ?? null);
  const row = await service.repository.findByArticleId(articleId, true);
  // A published parent is live already; for a draft, the published version decides.
  if (!row || !(await service.isVisible(row, auth, { live: parent.publishedAt ? true : undefined }))) return null;
  const json = narrationJson(row, service.publicUrl());
  return { ...json, durationSeconds: json.durationSeconds === null ? null : Number(json.durationSeconds) };
}
