import type { Context } from 'koa';
import { errors } from '@strapi/utils';
import type { NarrationRow } from '../queue';
import { etagOf, notModified } from '../http';
import { getService } from '../utils';

/** Visibility depends on the caller's credentials: `no-cache` and `Vary: Authorization` keep shared caches from mixing callers. */

export function privateAnswer(ctx: Context, etag: string): boolean {
  ctx.set('Cache-Control', 'no-cache');
  ctx.set('Vary', 'Authorization');
  return notModified(ctx, etag);
}

/** A private bucket's URL is signed for this request and expires: that redirect is never tagged or stored. */
export async function redirectToFile(ctx: Context, file: NarrationRow['audio']) {
  if (!file) throw new errors.NotFoundError('This narration has no stored file yet.');
  const readable = await getService('queue').readableUrl(file);
  if (readable.signed) {
    ctx.set('Cache-Control', 'no-store');
    ctx.redirect(readable.url);
    return;
  }
  if (privateAnswer(ctx, etagOf(`${file.id}:${file.url}`))) return;
  ctx.redirect(file.url);
}
