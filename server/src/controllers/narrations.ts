import type { Core } from '@strapi/strapi';
import { z } from 'zod';
import type { NarrationRow } from '../narration/jobs.repository';
import { narrationJson } from '../narration/public-view';
import { contentApiAccess, narrationService } from '../services';
import { sendError } from './http-error';

/** Public, read-only narration routes for front ends: JSON, and the stored files themselves. */

const articleIdParam = z.string().min(1).max(255);

export default ({ strapi }: { strapi: Core.Strapi }) => {
  async function load(ctx: any): Promise<NarrationRow | null> {
    const articleId = articleIdParam.safeParse(ctx.params.articleId);
    if (!articleId.success) {
      sendError(ctx, 400, 'Invalid articleId.');
      return null;
    }
    // Not found, not live, or not readable by this caller: one answer, so a closed type's
    // narrations cannot even be detected.
    const auth = await contentApiAccess(strapi).authenticate(ctx);
    const row = await narrationService(strapi).findVisible(articleId.data, auth);
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
      if (!row) return;
      // Who sees it depends on the caller's credentials: shared caches must keep answers apart.
      ctx.set('Vary', 'Authorization');
      ctx.body = narrationJson(row, narrationService(strapi).publicUrl());
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
