import type { Context } from 'koa';
import { errors } from '@strapi/utils';
import { z } from 'zod';
import type { NarrationRow } from '../narration/jobs.repository';
import { narrationJson } from '../narration/public-view';
import { chaptersToVtt } from '../subtitles/chapters';
import { getService } from '../utils';
import { validate } from './validate';

/** Public, read-only narration routes for front ends: JSON, and the stored files themselves. */

const articleIdParam = z.string().min(1).max(255);

async function findVisible(ctx: Context): Promise<NarrationRow> {
  const articleId = validate(articleIdParam, ctx.params.articleId, 'Invalid articleId.');
  // Not found, not live, or not readable by this caller: one answer, so a closed type's
  // narrations cannot even be detected.
  const auth = await getService('content-api-access').authenticate(ctx);
  const row = await getService('narrations').findVisible(articleId, auth);
  if (!row) throw new errors.NotFoundError('No narration for this article.');
  return row;
}

/** Media Library URLs are relative for the local provider and absolute for cloud providers. */
function redirectToFile(ctx: Context, file: NarrationRow['audio']) {
  if (!file) throw new errors.NotFoundError('This narration has no stored file yet.');
  ctx.set('Cache-Control', 'no-cache');
  ctx.redirect(file.url);
}

export default {
  async findOne(ctx: Context) {
    const row = await findVisible(ctx);
    // Who sees it depends on the caller's credentials: shared caches must keep answers apart.
    ctx.set('Vary', 'Authorization');
    ctx.body = narrationJson(row, getService('settings').publicUrl());
  },
  async audio(ctx: Context) {
    redirectToFile(ctx, (await findVisible(ctx)).audio);
  },
  async srt(ctx: Context) {
    redirectToFile(ctx, (await findVisible(ctx)).subtitles);
  },
  async vtt(ctx: Context) {
    redirectToFile(ctx, (await findVisible(ctx)).subtitlesVtt);
  },
  /** A WebVTT chapters track (`<track kind="chapters">`) from the article's headings; 404 when it has none. */
  async chapters(ctx: Context) {
    const row = await findVisible(ctx);
    if (!row.audio || !row.chapters?.length) throw new errors.NotFoundError('This narration has no chapters.');
    ctx.set('Cache-Control', 'no-cache');
    ctx.set('Vary', 'Authorization');
    ctx.type = 'text/vtt; charset=utf-8';
    ctx.body = chaptersToVtt(row.chapters);
  },
};
