import type { Context } from 'koa';
import { errors } from '@strapi/utils';
import { getService } from '../utils';
import { readListeningEvent } from './domain/events';
import { bodyReadByGuard } from './listening-guard';

/**
 * Public, under the public routes' rule: the same 404 for a narration the caller may not read.
 * `Speech-Insights` says whether it counted, for whoever debugs a player.
 */
export default {
  async create(ctx: Context) {
    if (!bodyReadByGuard(ctx)) throw new errors.ValidationError('A listening event is accepted only on its route, read by its guard.');
    const read = readListeningEvent(ctx.request.body, Number(ctx.get('content-length') || 0));
    const metrics = getService('metrics');
    if ('refused' in read) {
      metrics.insightsEvent('refused');
      if (read.refused.status === 413) throw new errors.PayloadTooLargeError(read.refused.message);
      throw new errors.ValidationError(read.refused.message);
    }
    const outcome = await getService('insights').listen(
      read.event,
      { address: ctx.request.ip, userAgent: ctx.get('user-agent') || undefined },
      { anonymous: !ctx.get('authorization'), authenticate: () => getService('content-api-access').authenticate(ctx) }
    );
    metrics.insightsEvent(outcome);
    if (outcome === 'not-found') throw new errors.NotFoundError('No narration for this article.');
    ctx.set('Cache-Control', 'no-store');
    ctx.set('Speech-Insights', outcome);
    ctx.status = 204;
  },
};
