import type { Context } from 'koa';
import { promises as fs } from 'node:fs';
import type { Core } from '@strapi/strapi';
import { prefixMatcher, restPrefix } from '../http';
import { isTranscriptionUpload } from './upload-guard';

/**
 * Keeps Strapi's body parser from leaving request bodies on disk for the plugin's routes.
 *
 * `strapi::body` (koa-body + formidable) parses every multipart request before routing, so before
 * authentication: an unauthenticated 60 MB chunked upload to `/speech/transcriptions` or
 * `/api/speech/callback` was written to the temporary directory, then refused with 401, and stayed
 * there, because the parser only removes a field named `files` and not even that when the route throws.
 * This guard runs ahead of the parser (it is installed with `strapi.server.use()` in `register`) and,
 * for the plugin's own paths only:
 * - refuses a multipart body with 415 on every route but the transcription upload, which is the only one
 *   taking a file: nothing is ever written for them;
 * - refuses the transcription upload with 401 when it carries no bearer token at all (admin sessions
 *   authenticate by that header only), before the parser writes it;
 * - whatever the outcome (401 on a bad token, 403, 400, 413, an error, or success), deletes every
 *   temporary file the parser wrote for the request once the response is decided. The upload's
 *   controller has by then streamed its file to the service and removed it; removing it again is a no-op.
 * Being ahead of Strapi's error middleware too, it answers through Strapi's own response helpers
 * (`ctx.unsupportedMediaType`, `ctx.unauthorized`), which write the body that middleware would.
 */

export type PluginRequestKind =
  /** `POST /speech/transcriptions`: the one route that takes a file. */
  | 'upload'
  /** Any other path of the plugin (admin `/speech/...`, content API `/api/speech/...`). */
  | 'no-files'
  /** Not the plugin's: left alone. */
  | 'other';

/** Which of the plugin's paths a request is for. `apiPrefix` is Strapi's REST prefix (`api.rest.prefix`, `/api`). */
export function pluginRequestKind(method: string, path: string, apiPrefix: unknown = '/api'): PluginRequestKind {
  if (method.toUpperCase() === 'POST' && isTranscriptionUpload(path)) return 'upload';
  if (prefixMatcher('/speech')(path) || prefixMatcher(`${restPrefix(apiPrefix)}/speech`)(path)) return 'no-files';
  return 'other';
}

/** A bearer credential as Strapi's admin strategy reads it: `Bearer <token>`, nothing else. */
export function hasBearerToken(authorization: string | undefined): boolean {
  if (!authorization) return false;
  const parts = authorization.trim().split(/\s+/);
  return parts.length === 2 && parts[0]!.toLowerCase() === 'bearer';
}

const MULTIPART_REFUSED = {
  message:
    'This route does not accept multipart/form-data; send JSON. Only the transcription upload (POST /speech/transcriptions) takes a file.',
  details: { code: 'MULTIPART_NOT_ACCEPTED' },
};

/** The same words as Strapi's own 401, so clients see one answer whichever layer refused. */
const UNAUTHENTICATED_MESSAGE = 'Missing or invalid credentials';

interface ParsedFile {
  filepath?: unknown;
}

/** Every temporary file path the body parser put on `ctx.request.files`, whatever the field names. */
export function temporaryFilePaths(files: unknown): string[] {
  if (!files || typeof files !== 'object') return [];
  return Object.values(files as Record<string, ParsedFile | ParsedFile[]>)
    .flatMap((value) => (Array.isArray(value) ? value : [value]))
    .map((file) => file?.filepath)
    .filter((filepath): filepath is string => typeof filepath === 'string' && filepath.length > 0);
}

export async function removeTemporaryFiles(ctx: Context): Promise<void> {
  const paths = temporaryFilePaths(ctx.request?.files);
  if (paths.length === 0) return;
  await Promise.all(paths.map((filepath) => fs.rm(filepath, { force: true }).catch(() => undefined)));
  delete ctx.request.files;
}

export function bodyGuard(apiPrefix: unknown = '/api') {
  return async (ctx: Context, next: () => Promise<unknown>) => {
    const kind = pluginRequestKind(ctx.method, ctx.path, apiPrefix);
    if (kind === 'other') return next();
    // Same test as koa-body's: a multipart Content-Type on a request that has a body.
    const multipart = Boolean(ctx.is('multipart'));
    if (multipart && kind === 'no-files') return ctx.unsupportedMediaType(MULTIPART_REFUSED.message, MULTIPART_REFUSED.details);
    if (multipart && kind === 'upload' && !hasBearerToken(ctx.get('authorization') || undefined)) {
      return ctx.unauthorized(UNAUTHENTICATED_MESSAGE);
    }
    try {
      return await next();
    } finally {
      await removeTemporaryFiles(ctx);
    }
  };
}

export function installBodyGuard(strapi: Core.Strapi): void {
  strapi.server.use(bodyGuard(strapi.config.get('api.rest.prefix', '/api')));
}
