import { createHash } from 'node:crypto';
import type { Context } from 'koa';

/** A hash of what the answer says, so an unchanged answer keeps its tag across restarts and instances. */

/** Weak (`W/"…"`) for an answer equal in meaning. */
export function etagOf(content: string | Buffer, { weak = false } = {}): string {
  const tag = `"${createHash('sha256').update(content).digest('base64url').slice(0, 27)}"`;
  return weak ? `W/${tag}` : tag;
}

/** Weak comparison (RFC 9110 13.1.2), a list, or `*`. */
export function etagMatches(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  const opaque = (tag: string) => tag.trim().replace(/^W\//, '');
  const wanted = opaque(etag);
  return ifNoneMatch.split(',').some((candidate) => candidate.trim() === '*' || opaque(candidate) === wanted);
}

/** True when it answered 304. Works for redirects too (Koa's `ctx.fresh` only looks at 2xx). */
export function notModified(ctx: Context, etag: string): boolean {
  ctx.set('ETag', etag);
  if (!['GET', 'HEAD'].includes(ctx.method) || !etagMatches(ctx.get('If-None-Match') || undefined, etag)) return false;
  ctx.status = 304;
  ctx.body = null;
  return true;
}
