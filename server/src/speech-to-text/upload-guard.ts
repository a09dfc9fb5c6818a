import type { Context } from 'koa';
import type { Core } from '@strapi/strapi';
import { errors } from '@strapi/utils';
import { routeMatcher } from '../http';
import { formatMegabytes } from '../speech-client';
import { MAX_AUDIO_BYTES, MULTIPART_ENVELOPE_ALLOWANCE } from './settings';

/**
 * A 413 on Content-Length before `strapi::body` (which accepts 200 MB by default) writes the upload
 * to disk; chunked uploads are checked after parsing, by the controller. Answers through Strapi's
 * response helper, since it runs ahead of Strapi's error middleware.
 */

/** In any spelling the router routes. */
export const isTranscriptionUpload = routeMatcher('/speech/transcriptions');

export function audioTooLargeError(sizeBytes: number | null): errors.PayloadTooLargeError {
  const size = sizeBytes !== null ? ` (${formatMegabytes(sizeBytes)})` : '';
  return new errors.PayloadTooLargeError(
    `The audio file is too large${size}: the speech service accepts files of at most ${formatMegabytes(MAX_AUDIO_BYTES)}. Shorten or compress the recording and try again.`,
    { code: 'PAYLOAD_TOO_LARGE', maxBytes: MAX_AUDIO_BYTES, sizeBytes }
  );
}

export function uploadGuard() {
  return async (ctx: Context, next: () => Promise<unknown>) => {
    if (ctx.method !== 'POST' || !isTranscriptionUpload(ctx.path)) return next();
    const declared = Number(ctx.get('content-length'));
    if (Number.isFinite(declared) && declared > MAX_AUDIO_BYTES + MULTIPART_ENVELOPE_ALLOWANCE) {
      const refusal = audioTooLargeError(declared);
      return ctx.payloadTooLarge(refusal.message, refusal.details);
    }
    return next();
  };
}

export function installUploadGuard(strapi: Core.Strapi): void {
  strapi.server.use(uploadGuard());
}
