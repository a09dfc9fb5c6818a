import type { Core } from '@strapi/strapi';
import { narrationService } from '../services';
import { narrationCallbackPayloadSchema } from '../speech-client';
import { sendError, sendValidationError } from './http-error';

/**
 * POST /api/speech/callback, called by the speech service (no Strapi auth: the HMAC signature is
 * the authentication). The body is parsed by the contract's schema before any crypto or database work.
 */
export default ({ strapi }: { strapi: Core.Strapi }) => ({
  async receive(ctx: any) {
    const parsed = narrationCallbackPayloadSchema.safeParse(ctx.request.body);
    if (!parsed.success) return sendValidationError(ctx, parsed.error, 'Malformed narration callback.');
    const { articleId, response } = parsed.data;
    const outcome = await narrationService(strapi).receiveCallback({ articleId, ...response });
    if (outcome.status === 'unauthorized') return sendError(ctx, 401, 'Invalid callback signature.');
    ctx.status = 200;
    ctx.body = { received: true, outcome: outcome.status };
  },
});
