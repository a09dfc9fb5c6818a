import type { Context } from 'koa';
import { errors } from '@strapi/utils';
import { getService } from '../utils';
import { readListeningEvent } from './domain/events';
import { bodyReadByGuard } from './listening-guard';

/**
 * POST /api/speech/insights/events: one event of the player (shared/contracts/insights.ts). Public,
 * under the public routes' rule: an event counts only for a live narration with audio that the
 * caller may read, and is refused with the same 404 otherwise (nothing is stored). With insights
 * off, or from a bot, it is answered 204 without looking the narration up. The answer is 204
 * either way once accepted; `Speech-Insights` says whether it counted, for whoever debugs a player.
 * An event whose body the listening guard did not read (bounded, rate-limited) is refused.
 */
export default {
  async create(ctx: Context) {
    if (!bodyReadByGuard(ctx)) throw new errors.ValidationError('A listening event is accepted only on its route, read by its guard.');
    const read = readListeningEvent(ctx.request.body, Number(ctx.get('content-length') || 0));
    if ('refused' in read) {
      if (read.refused.status === 413) throw new errors.PayloadTooLargeError(read.refused.message);
      throw new errors.ValidationError(read.refused.message);
    }
    const outcome = await getService('insights').listen(
      read.event,
      { address: ctx.request.ip, userAgent: ctx.get('user-agent') || undefined },
      { anonymous: !ctx.get('authorization'), authenticate: () => getService('content-api-access').authenticate(ctx) }
    );
    if (outcome === 'not-found') throw new errors.NotFoundError('No narration for this article.');
    ctx.set('Cache-Control', 'no-store');
    ctx.set('Speech-Insights', outcome);
    ctx.status = 204;
  },
};
