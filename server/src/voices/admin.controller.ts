import type { Context } from 'koa';
import { errors } from '@strapi/utils';
import { z } from 'zod/v3';
import { MAX_PREVIEW_TEXT_LENGTH, type ListVoicesResponse, type PreviewVoiceRequest } from '../../../shared/contracts/voices';
import { rethrowForAdmin, accepts } from '../http';
import { getService } from '../utils';
import { editorOrigin } from '../credits';
import { sendSpeech } from './send-speech';

const previewBody = accepts<PreviewVoiceRequest['body']>()(
  z.object({
    voiceId: z.string().trim().min(1).max(200),
    text: z.string().max(MAX_PREVIEW_TEXT_LENGTH, `text may have at most ${MAX_PREVIEW_TEXT_LENGTH} characters`).optional().nullable(),
  })
);

export default {
  async list(ctx: Context) {
    try {
      ctx.body = { voices: await getService('voices').list() } satisfies ListVoicesResponse;
    } catch (error) {
      rethrowForAdmin(ctx, error);
    }
  },

  async preview(ctx: Context) {
    const parsed = previewBody.safeParse(ctx.request.body ?? {});
    if (!parsed.success) {
      const fields = parsed.error.flatten().fieldErrors;
      const message = fields.text
        ? `The text is too long for a preview: at most ${MAX_PREVIEW_TEXT_LENGTH} characters.`
        : 'Choose a voice to preview (voiceId).';
      throw new errors.ValidationError(message, { errors: fields });
    }
    const { voiceId } = parsed.data;
    const account = getService('budget').previewAccount({
      kind: 'voice-preview',
      origin: editorOrigin('voice-preview', ctx.state.user),
      voiceId,
    });
    await sendSpeech(ctx, { voiceId, text: parsed.data.text ?? undefined }, account);
  },
};
