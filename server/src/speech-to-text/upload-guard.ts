import type { Context } from 'koa';
import type { Core } from '@strapi/strapi';
import { errors } from '@strapi/utils';
import { routeMatcher } from '../http';
import { formatMegabytes } from '../speech-client';
import { MAX_AUDIO_BYTES, MULTIPART_ENVELOPE_ALLOWANCE } from './settings';

/**
 * Refuses an oversized transcription upload before Strapi's body parser (`strapi::body`, koa-body +
 * formidable, which accepts files up to 200 MB by default) writes it to disk: a request to
 * `POST /speech/transcriptions` whose Content-Length is more than 50 MB plus the multipart envelope
 * gets 413 at once. The rest of the body is read and discarded by Node, so the client can read the
 * answer. Uploads without a Content-Length (chunked) are checked after parsing, by the controller.
 *
 * Installed with `strapi.server.use()` during `register`, i.e. ahead of the configured middlewares,
 * Strapi's error middleware included: the guard answers through Strapi's own response helper
 * (`ctx.payloadTooLarge`), which writes the same body that middleware would.
 */

/** `POST /speech/transcriptions` in any spelling the router routes. */
export const isTranscriptionUpload = routeMatcher('/speech/transcriptions');

/** 413 for an audio file over the service's limit; `sizeBytes` null when the size is not known. */
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
