import type { Core } from '@strapi/strapi';
import { z } from 'zod';
import { documentKey, type DocumentAction } from '../access/document-permissions';
import { mayActOn } from './document-guard';
import type { NarrationRow } from '../narration/jobs.repository';
import { documentPermissions, narrationService } from '../services';
import { sendError, sendValidationError } from './http-error';

/** Admin routes behind the admin JWT and the plugin's RBAC actions. */

const contentTypeUid = z.string().regex(/^[a-z0-9-]+::[a-z0-9-]+\.[a-z0-9-]+$/i);
const statusesQuery = z.object({ contentType: contentTypeUid, documentIds: z.array(z.string().min(1).max(64)).max(500) });
const manyTarget = z.object({ contentType: contentTypeUid, documentIds: z.array(z.string().min(1).max(64)).min(1).max(200), locale: z.string().min(1).max(20).nullable().optional() });
const voiceTarget = z.object({ contentType: contentTypeUid, documentId: z.string().min(1).max(64), locale: z.string().min(1).max(20).nullable().optional(), voiceId: z.string().min(1).max(200).nullable() });
export const documentTarget = z.object({ contentType: contentTypeUid, documentId: z.string().min(1).max(64), locale: z.string().min(1).max(20).nullable().optional() });

/** What the admin shows of a row; never the API key, never internal lease data. */
export function adminNarrationView(row: NarrationRow) {
  return {
    articleId: row.articleId,
    documentId: row.targetDocumentId,
    locale: row.targetLocale,
    contentType: row.contentType,
    status: row.status,
    title: row.title,
    voiceId: row.voiceId,
    preprocessType: row.preprocessType,
    characters: row.characters,
    credits: row.credits,
    attempts: row.attempts,
    regenerate: row.regenerate,
    lastError: row.lastError,
    lastErrorCode: row.lastErrorCode,
    creditsMayBeLost: row.creditsMayBeLost,
    nextAttemptAt: row.nextAttemptAt,
    submittedAt: row.submittedAt,
    completedAt: row.completedAt,
    updatedAt: row.updatedAt,
    audio: row.audio ? { id: row.audio.id, url: row.audio.url } : null,
    subtitles: row.subtitles ? { id: row.subtitles.id, url: row.subtitles.url } : null,
    subtitlesVtt: row.subtitlesVtt ? { id: row.subtitlesVtt.id, url: row.subtitlesVtt.url } : null,
  };
}

const badRequest = (ctx: any, error: z.ZodError) => sendValidationError(ctx, error);

/** Splits a bulk request into the documents the caller may act on and the ones skipped. */
async function permittedDocuments(strapi: Core.Strapi, ctx: any, target: z.infer<typeof manyTarget>, action: DocumentAction) {
  const locale = target.locale ?? null;
  const permitted = await documentPermissions(strapi).permitted(ctx.state.userAbility, target.contentType, target.documentIds.map((documentId) => ({ documentId, locale })), action);
  const localized = narrationService(strapi).content.isLocalized(target.contentType);
  const allowed = (documentId: string) => permitted.has(documentKey(documentId, localized ? locale : null));
  return { allowed: target.documentIds.filter(allowed), refused: target.documentIds.filter((documentId) => !allowed(documentId)) };
}

/** Narration rows the caller may read (their document, in their locale, passes "read"). */
async function readableRows(strapi: Core.Strapi, ctx: any, contentType: string, rows: NarrationRow[]): Promise<NarrationRow[]> {
  if (rows.length === 0) return rows;
  const targets = rows.map((row) => ({ documentId: row.targetDocumentId, locale: row.targetLocale }));
  const permitted = await documentPermissions(strapi).permitted(ctx.state.userAbility, contentType, targets, 'read');
  return rows.filter((row) => permitted.has(documentKey(row.targetDocumentId, row.targetLocale)));
}

export default ({ strapi }: { strapi: Core.Strapi }) => ({
  /** One request for a whole list page: statuses of many documents of one type. */
  async statuses(ctx: any) {
    const parsed = statusesQuery.safeParse(ctx.request.body);
    if (!parsed.success) return badRequest(ctx, parsed.error);
    const service = narrationService(strapi);
    const rows = await readableRows(strapi, ctx, parsed.data.contentType, await service.repository.findForDocuments(parsed.data.contentType, parsed.data.documentIds));
    const queue = await service.settings.queueState();
    ctx.body = { data: rows.map(adminNarrationView), queue };
  },

  async forDocument(ctx: any) {
    const parsed = documentTarget.safeParse({ contentType: ctx.query.contentType, documentId: ctx.params.documentId, locale: ctx.query.locale ?? null });
    if (!parsed.success) return badRequest(ctx, parsed.error);
    const service = narrationService(strapi);
    const rows = await readableRows(strapi, ctx, parsed.data.contentType, await service.repository.findForDocument(parsed.data.contentType, parsed.data.documentId));
    const selected = parsed.data.locale ? rows.filter((row) => row.targetLocale === parsed.data.locale || row.targetLocale === null) : rows;
    ctx.body = { data: selected.map(adminNarrationView), queue: await service.settings.queueState() };
  },

  async narrateNow(ctx: any) {
    const parsed = documentTarget.safeParse(ctx.request.body);
    if (!parsed.success) return badRequest(ctx, parsed.error);
    if (!(await mayActOn(strapi, ctx, parsed.data, 'narrate'))) return;
    const service = narrationService(strapi);
    const result = await service.narrateNow(parsed.data.contentType, parsed.data.documentId, parsed.data.locale ?? null);
    ctx.body = result;
  },

  async regenerate(ctx: any) {
    const parsed = documentTarget.safeParse(ctx.request.body);
    if (!parsed.success) return badRequest(ctx, parsed.error);
    if (!(await mayActOn(strapi, ctx, parsed.data, 'narrate'))) return;
    const result = await narrationService(strapi).regenerate(parsed.data.contentType, parsed.data.documentId, parsed.data.locale ?? null);
    ctx.body = result;
  },

  async estimateMany(ctx: any) {
    const parsed = manyTarget.safeParse(ctx.request.body);
    if (!parsed.success) return badRequest(ctx, parsed.error);
    // The preview of narrate-many: what the caller may read and also narrate.
    const readable = await permittedDocuments(strapi, ctx, parsed.data, 'read');
    const narratable = new Set((await permittedDocuments(strapi, ctx, parsed.data, 'narrate')).allowed);
    const allowed = readable.allowed.filter((documentId) => narratable.has(documentId));
    const refused = parsed.data.documentIds.filter((documentId) => !allowed.includes(documentId));
    ctx.body = { ...(await narrationService(strapi).estimateMany(parsed.data.contentType, allowed, parsed.data.locale ?? null)), refused };
  },

  async narrateMany(ctx: any) {
    const parsed = manyTarget.safeParse(ctx.request.body);
    if (!parsed.success) return badRequest(ctx, parsed.error);
    const { allowed, refused } = await permittedDocuments(strapi, ctx, parsed.data, 'narrate');
    ctx.body = { ...(await narrationService(strapi).narrateMany(parsed.data.contentType, allowed, parsed.data.locale ?? null)), refused };
  },

  async setVoice(ctx: any) {
    const parsed = voiceTarget.safeParse(ctx.request.body);
    if (!parsed.success) return badRequest(ctx, parsed.error);
    if (!(await mayActOn(strapi, ctx, parsed.data, 'narrate'))) return;
    ctx.body = await narrationService(strapi).setVoice(parsed.data.contentType, parsed.data.documentId, parsed.data.locale ?? null, parsed.data.voiceId);
  },

  /** POST /speech/narrations/paragraphs: the draft's paragraphs and the voice they would be read in. */
  async paragraphs(ctx: any) {
    const parsed = documentTarget.safeParse(ctx.request.body);
    if (!parsed.success) return badRequest(ctx, parsed.error);
    if (!(await mayActOn(strapi, ctx, parsed.data, 'read'))) return;
    const result = await narrationService(strapi).paragraphs(parsed.data.contentType, parsed.data.documentId, parsed.data.locale ?? null);
    if (!result) return sendError(ctx, 404, 'This content is not narrated or does not exist.');
    ctx.body = result;
  },

  async cancel(ctx: any) {
    const parsed = documentTarget.safeParse(ctx.request.body);
    if (!parsed.success) return badRequest(ctx, parsed.error);
    if (!(await mayActOn(strapi, ctx, parsed.data, 'narrate'))) return;
    await narrationService(strapi).cancelDocument(parsed.data.contentType, parsed.data.documentId, parsed.data.locale ?? null);
    ctx.body = { cancelled: true };
  },

  async resumeQueue(ctx: any) {
    const service = narrationService(strapi);
    const queue = await service.settings.updateQueueState({ paused: false, pausedUntil: null, pauseCode: null, pauseReason: null });
    service.worker.wake();
    ctx.body = { queue };
  },

  async overview(ctx: any) {
    const service = narrationService(strapi);
    const { config } = service;
    ctx.body = {
      apiKeyConfigured: Boolean(config.apiKey),
      baseUrl: config.baseUrl,
      webUrl: config.webUrl,
      callbackUrl: service.callbackUrl(),
      queue: await service.settings.queueState(),
      counts: await service.repository.countByStatus(),
      settings: await service.settings.get(),
    };
  },
});
