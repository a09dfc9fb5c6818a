import type { Context } from 'koa';
import { rethrowForAdmin } from '../http';
import { getService } from '../utils';
import type { PreviewAccount } from '../credits';
import type { PreviewResult } from './voice-preview';

export async function sendSpeech(ctx: Context, request: { voiceId: string; text?: string }, account?: PreviewAccount) {
  try {
    sendPreviewAudio(ctx, await getService('voice-preview').preview(request, account));
  } catch (error) {
    rethrowForAdmin(ctx, error, { voiceId: request.voiceId });
  }
}

function sendPreviewAudio(ctx: Context, result: PreviewResult) {
  ctx.set('Cache-Control', 'private, max-age=3600');
  ctx.set('X-Speech-Preview-Cache', result.cached ? 'hit' : 'miss');
  // The client knows its own text; the server's chosen sample is reported.
  if (result.language) {
    ctx.set('X-Speech-Preview-Language', result.language);
    ctx.set('X-Speech-Preview-Text', encodeURIComponent(result.text));
  }
  if (result.creditsRemaining !== undefined) ctx.set('X-Speech-Credits-Remaining', String(result.creditsRemaining));
  if (result.creditsUsed !== undefined) ctx.set('X-Speech-Credits-Used', String(result.creditsUsed));
  ctx.type = result.contentType || 'audio/mpeg';
  ctx.body = result.audio;
}
