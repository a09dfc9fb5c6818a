import type { Context } from 'koa';
import { errors } from '@strapi/utils';
import { z } from 'zod/v3';
import type { ContentApiAuth } from '../access';
import type { NarrationRow } from '../queue';
import { etagOf, validate } from '../http';
import { privateAnswer, redirectToFile } from './file-redirect';
import { chaptersToJson, chaptersToVtt } from '../subtitles';
import { getService } from '../utils';

/**
 * Every answer has an ETag, and a matching If-None-Match gets a 304 only after the caller is let in;
 * `no-cache` and `Vary: Authorization` keep shared caches from handing one caller's answer to another.
 */

const articleIdParam = z.string().min(1).max(255);

/** Not found, not live, or not readable by this caller: one answer, so a closed type's narrations cannot even be detected. */
async function visible<T>(ctx: Context, find: (articleId: string, auth: ContentApiAuth | null) => Promise<T | null>): Promise<T> {
  const articleId = validate(articleIdParam, ctx.params.articleId, 'Invalid articleId.');
  const found = await find(articleId, await getService('content-api-access').authenticate(ctx));
  if (!found) throw new errors.NotFoundError('No narration for this article.');
  return found;
}

const findVisible = (ctx: Context): Promise<NarrationRow> =>
  visible(ctx, (articleId, auth) => getService('narration-views').findVisible(articleId, auth));

export default {
  async findOne(ctx: Context) {
    // The live entry read once: for the caller's access and for the page's URL.
    const json = await visible(ctx, (articleId, auth) => getService('narration-views').visibleJson(articleId, auth));
    if (privateAnswer(ctx, etagOf(JSON.stringify(json), { weak: true }))) return;
    ctx.body = json;
  },
  async audio(ctx: Context) {
    await redirectToFile(ctx, (await findVisible(ctx)).audio);
  },
  async srt(ctx: Context) {
    await redirectToFile(ctx, (await findVisible(ctx)).subtitles);
  },
  async vtt(ctx: Context) {
    await redirectToFile(ctx, (await findVisible(ctx)).subtitlesVtt);
  },
  async chapters(ctx: Context) {
    const row = await findVisible(ctx);
    if (!row.audio || !row.chapters?.length) throw new errors.NotFoundError('This narration has no chapters.');
    const vtt = chaptersToVtt(row.chapters);
    if (privateAnswer(ctx, etagOf(vtt))) return;
    ctx.type = 'text/vtt; charset=utf-8';
    ctx.body = vtt;
  },
  async chaptersJson(ctx: Context) {
    const row = await findVisible(ctx);
    if (!row.audio || !row.chapters?.length) throw new errors.NotFoundError('This narration has no chapters.');
    const json = JSON.stringify(chaptersToJson(row.chapters, row.title));
    if (privateAnswer(ctx, etagOf(json))) return;
    ctx.type = 'application/json+chapters; charset=utf-8';
    ctx.body = json;
  },
};
