import type { Context } from 'koa';
import { Readable } from 'node:stream';
import type { Core } from '@strapi/strapi';
import getRawBody from 'raw-body';
import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import { LISTENING_EVENT_MAX_BYTES } from '../../../shared/contracts/insights';
import { restPrefix, routeMatcher } from '../http';
import { listenerNetwork } from './domain/network';

/**
 * Rate limits and a body cap for the public routes anyone's script can hammer, ahead of Strapi's
 * body parser (which would read 1 MB of JSON first). In memory: k instances allow k times the rate.
 */

/** A player sends about a dozen a listening: 50 listenings a minute. */
export const EVENTS_PER_MINUTE = 600;
/** Podcast apps ask again by ranges as they play. */
export const ENCLOSURES_PER_MINUTE = 300;

export const EVENTS_PATH = '/speech/insights/events';
export const ENCLOSURE_PATH = '/speech/feeds/:pluralName/:articleId/audio.mp3';

type GuardedRoute = 'events' | 'enclosure';

/** Under Strapi's REST prefix, in any spelling the router routes. */
export function guardedRoute(method: string, path: string, apiPrefix: unknown = '/api'): GuardedRoute | null {
  const prefix = restPrefix(apiPrefix);
  if (method === 'POST' && routeMatcher(`${prefix}${EVENTS_PATH}`)(path)) return 'events';
  if ((method === 'GET' || method === 'HEAD') && routeMatcher(`${prefix}${ENCLOSURE_PATH}`)(path)) return 'enclosure';
  return null;
}

/** The events controller refuses any body this guard did not read. */
const readByGuard = new WeakSet<object>();

export const bodyReadByGuard = (ctx: Pick<Context, 'req'>): boolean => readByGuard.has(ctx.req);

const TOO_LARGE = `A listening event is at most ${LISTENING_EVENT_MAX_BYTES} bytes.`;

/** koa-body reads `ctx.req` (co-body), so this stands in for the spent stream on this one route. */
function replay(request: Context['req'], body: Buffer): Context['req'] {
  const headers = { ...request.headers, 'content-length': String(body.length) };
  delete headers['transfer-encoding'];
  return Object.assign(Readable.from([body]), { headers, method: request.method, url: request.url, socket: request.socket }) as never;
}

export function listeningGuard(options: { apiPrefix?: unknown; warn?: (message: string) => void } = {}) {
  const limiters: Record<GuardedRoute, RateLimiterMemory> = {
    events: new RateLimiterMemory({ points: EVENTS_PER_MINUTE, duration: 60 }),
    enclosure: new RateLimiterMemory({ points: ENCLOSURES_PER_MINUTE, duration: 60 }),
  };
  let warnedProxy = false;

  return async (ctx: Context, next: () => Promise<unknown>) => {
    const route = guardedRoute(ctx.method, ctx.path, options.apiPrefix);
    if (!route) return next();
    if (!warnedProxy && ctx.get('x-forwarded-for') && !ctx.app.proxy) {
      warnedProxy = true;
      options.warn?.(
        "[speech] listening requests carry X-Forwarded-For but Strapi does not trust proxies (server.proxy.koa): every listener is counted from the proxy address, under one network's caps and rate. Set `proxy: { koa: true }` in config/server.ts if Strapi runs behind a reverse proxy."
      );
    }
    try {
      await limiters[route].consume(listenerNetwork(ctx.request.ip));
    } catch (refusal) {
      if (!(refusal instanceof RateLimiterRes)) throw refusal;
      ctx.set('Retry-After', String(Math.max(1, Math.ceil(refusal.msBeforeNext / 1000))));
      return ctx.tooManyRequests('Too many requests from this network: try again later.');
    }
    if (route === 'events') {
      const encoding = (ctx.get('content-encoding') || 'identity').toLowerCase();
      if (encoding !== 'identity') return ctx.unsupportedMediaType('A listening event is sent uncompressed.');
      if (Number(ctx.get('content-length') || 0) > LISTENING_EVENT_MAX_BYTES) return ctx.payloadTooLarge(TOO_LARGE);
      let body: Buffer;
      try {
        body = await getRawBody(ctx.req, { limit: LISTENING_EVENT_MAX_BYTES });
      } catch (error) {
        if ((error as { type?: string }).type === 'entity.too.large') return ctx.payloadTooLarge(TOO_LARGE);
        return ctx.badRequest('The body could not be read.');
      }
      ctx.req = replay(ctx.req, body);
      readByGuard.add(ctx.req);
    }
    return next();
  };
}

export function installListeningGuard(strapi: Core.Strapi): void {
  strapi.server.use(
    listeningGuard({ apiPrefix: strapi.config.get('api.rest.prefix', '/api'), warn: (message) => strapi.log.warn(message) })
  );
}
