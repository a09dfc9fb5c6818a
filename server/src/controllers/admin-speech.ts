import type { Context } from 'koa';
import { errors } from '@strapi/utils';
import { z } from 'zod';
import { rethrowForAdmin } from '../http/speech-service-errors';
import { getService } from '../utils';
import { MAX_PREVIEW_TEXT_LENGTH, type PreviewResult } from '../voice-preview/preview';
import { ensureMayActOn } from './document-guard';
import { documentTarget, validate } from './validate';

/** Speech generation for the admin: voice previews and "listen to this text". Answers with the audio bytes. */

const previewBody = z.object({
  voiceId: z.string().trim().min(1).max(200),
  text: z.string().max(MAX_PREVIEW_TEXT_LENGTH, `text may have at most ${MAX_PREVIEW_TEXT_LENGTH} characters`).optional().nullable(),
});

const listenBody = documentTarget.extend({ index: z.number().int().min(0).max(10_000) });

export default {
  /** POST /speech/tts/preview { voiceId, text? } -> audio/mpeg */
  async preview(ctx: Context) {
    const parsed = previewBody.safeParse(ctx.request.body ?? {});
    if (!parsed.success) {
      const fields = parsed.error.flatten().fieldErrors;
      const message = fields.text
        ? `The text is too long for a preview: at most ${MAX_PREVIEW_TEXT_LENGTH} characters.`
        : 'Choose a voice to preview (voiceId).';
      throw new errors.ValidationError(message, { errors: fields });
    }
    await sendSpeech(ctx, { voiceId: parsed.data.voiceId, text: parsed.data.text ?? undefined });
  },

  /**
   * POST /speech/narrations/listen { contentType, documentId, locale?, index } -> audio/mpeg:
   * one paragraph of the entry's current text in the voice it would be narrated in. The text is
   * read on the server, so this route speaks article text only, never arbitrary input.
   */
  async listen(ctx: Context) {
    const target = validate(listenBody, ctx.request.body ?? {});
    const { contentType, documentId, locale, index } = target;
    await ensureMayActOn(ctx, target, 'narrate');
    const draft = await getService('narrations').paragraphs(contentType, documentId, locale ?? null);
    if (!draft) throw new errors.NotFoundError('This content is not narrated or does not exist.');
    const paragraph = draft.paragraphs[index];
    if (!paragraph) {
      throw new errors.ValidationError(`There is no paragraph ${index + 1}: the text has ${draft.paragraphs.length}.`, {
        paragraphs: draft.paragraphs.length,
      });
    }
    if (!draft.voiceId) throw new errors.ValidationError('Choose a default voice in Settings -> Speech first.');
    if (paragraph.text.length > MAX_PREVIEW_TEXT_LENGTH) {
      throw new errors.ValidationError(
        `This paragraph is too long to listen to on its own: at most ${MAX_PREVIEW_TEXT_LENGTH} characters.`
      );
    }
    await sendSpeech(ctx, { voiceId: draft.voiceId, text: paragraph.text });
  },
};

/**
 * Answers with speech generated for `request` (or kept from an earlier request); a speech-service
 * error becomes the admin route's answer, naming the voice.
 */
export async function sendSpeech(ctx: Context, request: { voiceId: string; text?: string }) {
  try {
    sendPreviewAudio(ctx, await getService('voice-preview').preview(request));
  } catch (error) {
    rethrowForAdmin(ctx, error, { voiceId: request.voiceId });
  }
}

/** Writes a generated (or cached) audio answer with what the admin shows about it. */
function sendPreviewAudio(ctx: Context, result: PreviewResult) {
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
