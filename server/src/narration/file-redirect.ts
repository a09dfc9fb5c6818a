import type { Context } from 'koa';
import { errors } from '@strapi/utils';
import type { NarrationRow } from '../queue';
import { etagOf, notModified } from '../http';
import { getService } from '../utils';

/**
 * How a narration's stored file is handed out by the public routes (the player's, the feeds'
 * enclosures): a redirect to the Media Library's URL. Whether a narration may be seen depends on the
 * caller's credentials, so `Cache-Control: no-cache` and `Vary: Authorization` keep shared caches
 * from handing one caller's answer to another; the ETag makes asking again cheap.
 */

export function privateAnswer(ctx: Context, etag: string): boolean {
  ctx.set('Cache-Control', 'no-cache');
  ctx.set('Vary', 'Authorization');
  return notModified(ctx, etag);
}

/**
 * Media Library URLs are relative for the local provider and absolute for cloud providers. The tag
 * follows the file: a regenerated narration is a new upload, with a new id and URL. A private
 * bucket's file is reached through a URL signed for this request, which expires: that redirect is
 * never stored nor tagged, so no cache hands out an old one.
 */
export async function redirectToFile(ctx: Context, file: NarrationRow['audio']) {
  if (!file) throw new errors.NotFoundError('This narration has no stored file yet.');
  const readable = await getService('media').readableUrl(file);
  if (readable.signed) {
    ctx.set('Cache-Control', 'no-store');
    ctx.redirect(readable.url);
    return;
  }
  if (privateAnswer(ctx, etagOf(`${file.id}:${file.url}`))) return;
  ctx.redirect(file.url);
}
