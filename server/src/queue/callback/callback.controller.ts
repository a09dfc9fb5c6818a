import type { Context } from 'koa';
import { errors } from '@strapi/utils';
import { narrationCallbackPayloadSchema } from '../../speech-client';
import { getService } from '../../utils';
import { validate } from '../../http';

/** No Strapi auth: the HMAC signature is the authentication; the body is parsed before any crypto or database work. */
export default {
  async receive(ctx: Context) {
    const { articleId, response } = validate(narrationCallbackPayloadSchema, ctx.request.body, 'Malformed narration callback.');
    const outcome = await getService('queue').receiveCallback({ articleId, ...response });
    if (outcome.status === 'unauthorized') throw new errors.UnauthorizedError('Invalid callback signature.');
    ctx.status = 200;
    ctx.body = { received: true, outcome: outcome.status };
  },
};
