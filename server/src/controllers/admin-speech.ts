import type { Core } from '@strapi/strapi';
import { z } from 'zod';
import type { TranscriptionService } from '../services/transcription';
import { errorAnswer, sendAnswer, sendServiceError } from './speech-service-errors';
import { narrationService } from '../services';
import { MAX_PREVIEW_TEXT_LENGTH, type PreviewResult } from '../transcription/preview';
import { documentTarget } from './admin-narrations';
import { mayActOn } from './document-guard';
import { sendError, sendValidationError } from './http-error';

/** Speech generation for the admin: voice previews and "listen to this text". Answers with the audio bytes. */

const service = (strapi: Core.Strapi) => strapi.plugin('speech').service('transcription') as TranscriptionService;

const previewBody = z.object({
  voiceId: z.string().trim().min(1).max(200),
  text: z.string().max(MAX_PREVIEW_TEXT_LENGTH, `text may have at most ${MAX_PREVIEW_TEXT_LENGTH} characters`).optional().nullable(),
});

const listenBody = documentTarget.extend({ index: z.number().int().min(0).max(10_000) });

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
      sendPreviewAudio(ctx, result);
    } catch (error) {
      sendServiceError(ctx, error, { voiceId: parsed.data.voiceId });
    }
  },

  /**
   * POST /speech/narrations/listen { contentType, documentId, locale?, index } -> audio/mpeg:
   * one paragraph of the entry's current text in the voice it would be narrated in. The text is
   * read on the server, so this route speaks article text only, never arbitrary input.
   */
  async listen(ctx: any) {
    const parsed = listenBody.safeParse(ctx.request.body ?? {});
    if (!parsed.success) return sendValidationError(ctx, parsed.error);
    const { contentType, documentId, locale, index } = parsed.data;
    if (!(await mayActOn(strapi, ctx, parsed.data, 'narrate'))) return;
    const draft = await narrationService(strapi).paragraphs(contentType, documentId, locale ?? null);
    if (!draft) return sendError(ctx, 404, 'This content is not narrated or does not exist.');
    const paragraph = draft.paragraphs[index];
    if (!paragraph) {
      return sendError(ctx, 400, `There is no paragraph ${index + 1}: the text has ${draft.paragraphs.length}.`, { paragraphs: draft.paragraphs.length });
    }
    if (!draft.voiceId) return sendError(ctx, 400, 'Choose a default voice in Settings -> Speech first.');
    if (paragraph.text.length > MAX_PREVIEW_TEXT_LENGTH) {
      return sendError(ctx, 400, `This paragraph is too long to listen to on its own: at most ${MAX_PREVIEW_TEXT_LENGTH} characters.`);
    }
    try {
      sendPreviewAudio(ctx, await service(strapi).preview.preview({ voiceId: draft.voiceId, text: paragraph.text }));
    } catch (error) {
      sendServiceError(ctx, error, { voiceId: draft.voiceId });
    }
  },
});

/** Writes a generated (or cached) audio answer with what the admin shows about it. */
function sendPreviewAudio(ctx: any, result: PreviewResult) {
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
}
