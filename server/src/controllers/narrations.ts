import type { Core } from '@strapi/strapi';
import { z } from 'zod';
import type { NarrationRow } from '../narration/jobs.repository';
import { narrationService } from '../services';
import { sendError } from './http-error';

/** Public, read-only narration routes for front ends: JSON, and the stored files themselves. */

const articleIdParam = z.string().min(1).max(255);

/** The status front ends see; the queue's internal states are an implementation detail. */
export function publicStatus(row: Pick<NarrationRow, 'status' | 'audio'>): string {
  if (row.status === 'completed') return 'ready';
  if (row.status === 'failed' || row.status === 'cancelled') return row.audio ? 'ready' : row.status;
  return row.audio ? 'ready' : 'processing';
}

export function narrationJson(row: NarrationRow, base: string) {
  const hasFiles = Boolean(row.audio && row.subtitles);
  const fileUrl = (name: string) => (hasFiles ? `${base}/api/speech/narrations/${encodeURIComponent(row.articleId)}/${name}` : null);
  return {
    articleId: row.articleId,
    documentId: row.targetDocumentId,
    locale: row.targetLocale,
    contentType: row.contentType,
    status: publicStatus(row),
    audioUrl: fileUrl('audio.mp3'),
    srtUrl: fileUrl('subtitles.srt'),
    vttUrl: fileUrl('subtitles.vtt'),
    characters: row.characters,
    credits: row.credits,
    updatedAt: row.updatedAt,
  };
}

export default ({ strapi }: { strapi: Core.Strapi }) => {
  async function load(ctx: any): Promise<NarrationRow | null> {
    const articleId = articleIdParam.safeParse(ctx.params.articleId);
    if (!articleId.success) {
      sendError(ctx, 400, 'Invalid articleId.');
      return null;
    }
    const row = await narrationService(strapi).findPublic(articleId.data);
    if (!row) {
      sendError(ctx, 404, 'No narration for this article.');
      return null;
    }
    return row;
  }

  /** Media Library URLs are relative for the local provider and absolute for cloud providers. */
  function redirectToFile(ctx: any, file: NarrationRow['audio']) {
    if (!file) return sendError(ctx, 404, 'This narration has no stored file yet.');
    ctx.set('Cache-Control', 'no-cache');
    ctx.redirect(file.url);
  }

  return {
    async findOne(ctx: any) {
      const row = await load(ctx);
      if (row) ctx.body = narrationJson(row, ctx.request.origin);
    },
    async audio(ctx: any) {
      const row = await load(ctx);
      if (row) redirectToFile(ctx, row.audio);
    },
    async srt(ctx: any) {
      const row = await load(ctx);
      if (row) redirectToFile(ctx, row.subtitles);
    },
    async vtt(ctx: any) {
      const row = await load(ctx);
      if (row) redirectToFile(ctx, row.subtitlesVtt);
    },
  };
};
