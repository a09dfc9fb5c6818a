import type { Context } from 'koa';
import { errors } from '@strapi/utils';
import { z } from 'zod/v3';
import { localeCode, getService } from '../utils';
import { notModified, validate } from '../http';
import { redirectToFile } from '../narration';

const pluralNameParam = z.string().regex(/^[a-z0-9-]{1,100}$/i);
const articleIdParam = z.string().min(1).max(255);

export default {
  async feed(ctx: Context) {
    // path-to-regexp 6 already leaves `.xml` out; a router that kept it is covered too.
    const pluralName = validate(pluralNameParam, String(ctx.params.pluralName ?? '').replace(/\.xml$/i, ''), 'Invalid feed name.');
    const locale = ctx.query.locale === undefined ? null : validate(localeCode, ctx.query.locale, 'Invalid locale.');
    const feeds = getService('feeds');
    const answer = await feeds.feed(pluralName, locale);
    // A locale the site lacks is a 404 (a dead address to a podcast app); 400 is for a value that is no locale code.
    if (answer.kind === 'not-found') throw new errors.NotFoundError(answer.reason);
    const { feed } = answer;
    // The Public role decides what is in it, so any cache may keep it.
    ctx.set('Cache-Control', `public, max-age=${feeds.maxAgeSeconds}`);
    if (notModified(ctx, feed.etag)) return;
    ctx.type = 'application/rss+xml; charset=utf-8';
    ctx.body = feed.body;
  },

  async enclosure(ctx: Context) {
    const pluralName = validate(pluralNameParam, ctx.params.pluralName, 'Invalid feed name.');
    const articleId = validate(articleIdParam, ctx.params.articleId, 'Invalid articleId.');
    const row = await getService('feeds').enclosure(pluralName, articleId);
    if (!row) throw new errors.NotFoundError('No such episode in this feed.');
    const outcome = await getService('insights').download(
      row,
      { method: ctx.method, range: ctx.get('range') || undefined },
      { address: ctx.request.ip, userAgent: ctx.get('user-agent') || undefined }
    );
    ctx.set('Speech-Insights', outcome);
    await redirectToFile(ctx, row.audio);
  },
};
