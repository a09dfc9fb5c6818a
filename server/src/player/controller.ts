import type { Context } from 'koa';
import { errors } from '@strapi/utils';
import { notModified } from '../http';
import { loadPlayerAsset, playerCacheControl } from './asset';

/** GET /api/speech/player.js: the `<speech-narration>` web component, an ES module with no data in it. */
export default {
  script(ctx: Context) {
    const asset = loadPlayerAsset();
    if (!asset) throw new errors.NotFoundError('The player is not built: run `npm run build` in strapi-plugin-speech.');
    ctx.set('Cache-Control', playerCacheControl(asset, ctx.query.v));
    // The hash for the long-cached URL `player.js?v=<hash>` (the ETag without its quotes).
    ctx.set('X-Player-Version', asset.hash);
    // Compared here, not by koa's `ctx.fresh`, which refuses any request with `Cache-Control:
    // no-cache`, as fetch() sends on conditional requests.
    if (notModified(ctx, asset.etag)) return;
    ctx.type = 'text/javascript; charset=utf-8';
    ctx.body = asset.body;
  },
};
