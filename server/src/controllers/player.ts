import type { Context } from 'koa';
import { errors } from '@strapi/utils';
import { etagMatches, loadPlayerAsset, playerCacheControl } from '../player/asset';

/** GET /api/speech/player.js: the `<speech-narration>` web component, an ES module with no data in it. */
export default {
  script(ctx: Context) {
    const asset = loadPlayerAsset();
    if (!asset) throw new errors.NotFoundError('The player is not built: run `npm run build` in strapi-plugin-speech.');
    ctx.set('ETag', asset.etag);
    ctx.set('Cache-Control', playerCacheControl(asset, ctx.query.v));
    // The hash for the long-cached URL `player.js?v=<hash>` (the ETag without its quotes).
    ctx.set('X-Player-Version', asset.hash);
    if (etagMatches(ctx.get('If-None-Match'), asset.etag)) {
      ctx.status = 304;
      return;
    }
    ctx.type = 'text/javascript; charset=utf-8';
    ctx.body = asset.body;
  },
};
