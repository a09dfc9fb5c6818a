import type { Core } from '@strapi/strapi';
import { z } from 'zod';
import { narrationService } from '../services';

/**
 * POST /api/speech/callback, called by the speech service (no Strapi auth: the HMAC signature is
 * the authentication). Shape and lengths are checked before any crypto or database work.
 */
const resultUrl = z.string().max(2048).url().nullable();

export const callbackBodySchema = z.object({
  articleId: z.string().min(1).max(255),
  response: z.object({
    audioFile: resultUrl,
    srtFile: resultUrl,
    signature: z.string().min(1).max(256),
  }),
});

export default ({ strapi }: { strapi: Core.Strapi }) => ({
  async receive(ctx: any) {
    const parsed = callbackBodySchema.safeParse(ctx.request.body);
    if (!parsed.success) {
      ctx.status = 400;
      ctx.body = { error: { status: 400, name: 'BadRequest', message: 'Malformed narration callback.', details: parsed.error.flatten().fieldErrors } };
      return;
    }
    const { articleId, response } = parsed.data;
    const outcome = await narrationService(strapi).receiveCallback({ articleId, ...response });
    if (outcome.status === 'unauthorized') {
      ctx.status = 401;
      ctx.body = { error: { status: 401, name: 'Unauthorized', message: 'Invalid callback signature.' } };
      return;
    }
    ctx.status = 200;
    ctx.body = { received: true, outcome: outcome.status };
  },
});
