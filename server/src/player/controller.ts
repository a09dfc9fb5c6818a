import type { Context } from 'koa';
import { errors } from '@strapi/utils';
import { notModified } from '../http';
import { loadPlayerAsset, playerCacheControl } from './asset';

export default {
  script(ctx: Context) {
    const asset = loadPlayerAsset();
    if (!asset) throw new errors.NotFoundError('The player is not built: run `npm run build` in strapi-plugin-speech.');
    ctx.set('Cache-Control', playerCacheControl(asset, ctx.query.v));
    ctx.set('X-Player-Version', asset.hash);
    // Not koa's `ctx.fresh`, which refuses requests with `Cache-Control: no-cache`, as fetch() sends them.
    if (notModified(ctx, asset.etag)) return;
    ctx.type = 'text/javascript; charset=utf-8';
    ctx.body = asset.body;
  },
};
