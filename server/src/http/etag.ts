import { createHash } from 'node:crypto';
import type { Context } from 'koa';

/**
 * Entity tags for the public routes: a hash of what the answer says, so an unchanged answer keeps its
 * tag across restarts and instances, and a client that has it gets a 304 instead of the body again.
 */

/** A strong tag for exactly these bytes (`"…"`), or a weak one (`W/"…"`) for an answer equal in meaning. */
export function etagOf(content: string | Buffer, { weak = false } = {}): string {
  const tag = `"${createHash('sha256').update(content).digest('base64url').slice(0, 27)}"`;
  return weak ? `W/${tag}` : tag;
}

/** Does `If-None-Match` name this tag? Weak comparison (RFC 9110 13.1.2), a list, or `*`. */
export function etagMatches(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  const opaque = (tag: string) => tag.trim().replace(/^W\//, '');
  const wanted = opaque(etag);
  return ifNoneMatch.split(',').some((candidate) => candidate.trim() === '*' || opaque(candidate) === wanted);
}

/**
 * Sets the ETag; answers 304 (and true: the caller sends nothing more) when the client already has it.
 * Works for any status the caller means to send, redirects included (Koa's `ctx.fresh` only looks at 2xx).
 */
export function notModified(ctx: Context, etag: string): boolean {
  ctx.set('ETag', etag);
  if (!['GET', 'HEAD'].includes(ctx.method) || !etagMatches(ctx.get('If-None-Match') || undefined, etag)) return false;
  ctx.status = 304;
  ctx.body = null;
  return true;
}
