import type { Core } from '@strapi/strapi';
import { z } from 'zod';
import type { TranscriptionService } from '../services/transcription';
import { errorAnswer, sendAnswer, sendServiceError } from './speech-service-errors';
import { MAX_PREVIEW_TEXT_LENGTH } from '../transcription/preview';

/** Speech generation for the admin: voice previews and "listen to this text". Answers with the audio bytes. */

const service = (strapi: Core.Strapi) => strapi.plugin('speech').service('transcription') as TranscriptionService;

const previewBody = z.object({
  voiceId: z.string().trim().min(1).max(200),
  text: z.string().max(MAX_PREVIEW_TEXT_LENGTH, `text may have at most ${MAX_PREVIEW_TEXT_LENGTH} characters`).optional().nullable(),
});

export default ({ strapi }: { strapi: Core.Strapi }) => ({
  /** POST /speech/tts/preview { voiceId, text? } -> audio/mpeg */
  async preview(ctx: any) {
    const parsed = previewBody.safeParse(ctx.request.body ?? {});
    if (!parsed.success) {
      const fields = parsed.error.flatten().fieldErrors;
      const message = fields.text ? `The text is too long for a preview: at most ${MAX_PREVIEW_TEXT_LENGTH} characters.` : 'Choose a voice to preview (voiceId).';
      return sendAnswer(ctx, errorAnswer(400, 'ValidationError', message, { errors: fields }));
    }
    try {
      const result = await service(strapi).preview.preview({ voiceId: parsed.data.voiceId, text: parsed.data.text ?? undefined });
      ctx.set('Cache-Control', 'private, max-age=3600');
      ctx.set('X-Speech-Preview-Cache', result.cached ? 'hit' : 'miss');
      // The sample the server chose (the client knows its own text; a long one would not fit a header).
      if (result.language) {
        ctx.set('X-Speech-Preview-Language', result.language);
        ctx.set('X-Speech-Preview-Text', encodeURIComponent(result.text));
      }
      if (result.creditsRemaining !== undefined) ctx.set('X-Speech-Credits-Remaining', String(result.creditsRemaining));
      if (result.creditsUsed !== undefined) ctx.set('X-Speech-Credits-Used', String(result.creditsUsed));
      ctx.type = result.contentType || 'audio/mpeg';
      ctx.body = result.audio;
    } catch (error) {
      sendServiceError(ctx, error, { voiceId: parsed.data.voiceId });
    }
  },
});
