import type { Context } from 'koa';
import { promises as fs } from 'node:fs';
import type { Core } from '@strapi/strapi';
import { prefixMatcher, restPrefix } from '../http';
import { isTranscriptionUpload } from './upload-guard';

/**
 * Runs ahead of `strapi::body`, which parses multipart before authentication and leaves the temporary
 * files behind when a route refuses. For the plugin's paths: multipart is refused (415) except on the
 * upload, the upload without a bearer token is refused (401) before parsing, and every temporary file
 * is deleted once the response is decided. Answers through Strapi's response helpers, as its error
 * middleware (which runs after this) would.
 */

export type PluginRequestKind =
  /** `POST /speech/transcriptions`: the one route that takes a file. */
  | 'upload'
  /** Any other path of the plugin (admin `/speech/...`, content API `/api/speech/...`). */
  | 'no-files'
  /** Not the plugin's: left alone. */
  | 'other';

export function pluginRequestKind(method: string, path: string, apiPrefix: unknown = '/api'): PluginRequestKind {
  if (method.toUpperCase() === 'POST' && isTranscriptionUpload(path)) return 'upload';
  if (prefixMatcher('/speech')(path) || prefixMatcher(`${restPrefix(apiPrefix)}/speech`)(path)) return 'no-files';
  return 'other';
}

/** As Strapi's admin strategy reads it: `Bearer <token>`, nothing else. */
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

/** Strapi's own 401 words, so clients see one answer whichever layer refused. */
const UNAUTHENTICATED_MESSAGE = 'Missing or invalid credentials';

interface ParsedFile {
  filepath?: unknown;
}

/** Whatever the field names: the parser only removes a field named `files`. */
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
