import type { Context } from 'koa';
import { errors } from '@strapi/utils';
import { z } from 'zod/v3';
import { notModified, validate } from '../http';
import { getService } from '../utils';
import { loadPlayerAsset, playerCacheControl } from './asset';
import { embedPage, embedPolicy, oembedResponse } from './embed';

const articleIdParam = z.string().min(1).max(255);
const oembedQuery = z.object({
  url: z
    .string()
    .max(2048)
    .regex(/^https?:\/\//i, 'must be an http(s) URL'),
  format: z.enum(['json', 'xml']).default('json'),
  maxwidth: z.coerce.number().int().min(1).max(10_000).optional(),
  maxheight: z.coerce.number().int().min(1).max(10_000).optional(),
});

/** Shared caches never give one caller's answer to another: it depends on who asks. */
function privateHeaders(ctx: Context) {
  ctx.set('Cache-Control', 'no-cache');
  ctx.vary('Authorization');
}

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

  /** The player alone, for another site's iframe: only what the narration JSON shows the same caller. */
  async embed(ctx: Context) {
    const articleId = validate(articleIdParam, ctx.params.articleId, 'Invalid articleId.');
    const auth = await getService('content-api-access').authenticate(ctx);
    const row = await getService('narration-views').findVisible(articleId, auth);
    if (!row) throw new errors.NotFoundError('No narration for this article.');
    const api = getService('settings').contentApiUrl();
    const asset = loadPlayerAsset();
    const embedUrl = `${api}/speech/embed/${encodeURIComponent(row.articleId)}`;
    privateHeaders(ctx);
    // This page is made to be framed: its own policy, and no X-Frame-Options from the security middleware.
    ctx.set('Content-Security-Policy', embedPolicy(['https:']));
    ctx.remove('X-Frame-Options');
    ctx.type = 'text/html; charset=utf-8';
    ctx.body = embedPage({
      api: getService('settings').publicUrl(),
      playerUrl: `${api}/speech/player.js${asset ? `?v=${asset.hash}` : ''}`,
      articleId: row.articleId,
      title: row.title,
      locale: row.targetLocale,
      oembedUrl: `${api}/speech/oembed?url=${encodeURIComponent(embedUrl)}&format=json`,
    });
  },

  /** oEmbed for an article's page (its type's `url`) or a narration's URL. */
  async oembed(ctx: Context) {
    const query = validate(oembedQuery, ctx.query, 'Invalid oEmbed request.');
    if (query.format !== 'json') {
      ctx.status = 501;
      ctx.body = { error: { status: 501, name: 'NotImplementedError', message: 'Only format=json is served.' } };
      return;
    }
    const auth = await getService('content-api-access').authenticate(ctx);
    const row = await getService('narration-views').findVisibleByUrl(query.url, auth);
    if (!row?.audio) throw new errors.NotFoundError('No narration for this URL.');
    const settings = getService('settings');
    const { siteName } = await settings.get();
    privateHeaders(ctx);
    ctx.body = oembedResponse({
      embedUrl: `${settings.contentApiUrl()}/speech/embed/${encodeURIComponent(row.articleId)}`,
      title: row.title,
      providerName: siteName || new URL(settings.publicUrl()).host,
      providerUrl: settings.publicUrl(),
      maxWidth: query.maxwidth,
      maxHeight: query.maxheight,
    });
  },
};
