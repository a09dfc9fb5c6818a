import type { Core } from '@strapi/strapi';
import { z } from 'zod';
import { narrationService } from '../services';
import { sendError, sendValidationError } from './http-error';

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
    if (!parsed.success) return sendValidationError(ctx, parsed.error, 'Malformed narration callback.');
    const { articleId, response } = parsed.data;
    const outcome = await narrationService(strapi).receiveCallback({ articleId, ...response });
    if (outcome.status === 'unauthorized') return sendError(ctx, 401, 'Invalid callback signature.');
    ctx.status = 200;
    ctx.body = { received: true, outcome: outcome.status };
  },
});
