import type { Context } from 'koa';
import { errors } from '@strapi/utils';
import { getService } from '../utils';

export default {
  /** Prometheus text format, behind the configured bearer token; not found while metrics are off. */
  async scrape(ctx: Context) {
    const metrics = getService('metrics');
    if (!metrics.enabled) throw new errors.NotFoundError('Metrics are not enabled (speech.config.metrics.enabled).');
    if (!metrics.authorized(ctx.get('authorization'))) {
      ctx.set('WWW-Authenticate', 'Bearer realm="speech metrics"');
      throw new errors.UnauthorizedError('A valid bearer token is required.');
    }
    ctx.set('Cache-Control', 'no-store');
    ctx.type = metrics.contentType;
    ctx.body = await metrics.render();
  },
};
