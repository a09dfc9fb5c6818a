import type { Context } from 'koa';
import type { Core } from '@strapi/strapi';
import type { ContentApiAuth } from '../../access';
import { entryNarration } from './entry-narration';

/**
 * `GET /api/<type>?narration=true` (and `/api/<type>/:id?narration=true`) returns each entry with
 * its `narration`, so a front end needs no second request. The parameter is registered with
 * Strapi's content API (it passes `strictParams`), and the entries are completed once the
 * type's own controller has answered: its permissions and sanitising apply unchanged.
 */

const READ_HANDLER = /^(api::[^.]+\.[^.]+)\.(find|findOne)$/;

type ContentApiEntry = Record<string, unknown> & { documentId?: string; locale?: string | null; publishedAt?: string | null };

export function registerRestNarrationParam(strapi: Core.Strapi): void {
  const contentApi = (strapi as unknown as { contentAPI?: { addQueryParams?: (params: Record<string, unknown>) => void } }).contentAPI;
  contentApi?.addQueryParams?.({
    narration: {
      schema: (z: typeof import('zod').z) =>
        z.enum(['true', 'false']).optional().describe('true: each entry comes with its narration (speech plugin)'),
      // Route objects outlive a Strapi instance in one process (tests create several): add it once.
      matchRoute: (route: { handler?: unknown; request?: { query?: Record<string, unknown> } }) =>
        typeof route.handler === 'string' &&
        READ_HANDLER.test(route.handler) &&
        !(route.request?.query && 'narration' in route.request.query),
    },
  });

  strapi.server.use(async (ctx: Context, next: () => Promise<unknown>) => {
    await next();
    if (ctx.method !== 'GET' || ctx.status !== 200 || ctx.query?.narration !== 'true') return;
    const handler = ctx.state?.route?.handler;
    const match = typeof handler === 'string' ? READ_HANDLER.exec(handler) : null;
    const body = ctx.body as { data?: unknown } | undefined;
    if (!match || !body || typeof body !== 'object' || !body.data) return;
    const uid = match[1];
    const auth = (ctx.state.auth as ContentApiAuth | undefined) ?? null;
    const entries = (Array.isArray(body.data) ? body.data : [body.data]) as Array<ContentApiEntry | null>;
    for (const entry of entries) {
      if (entry && typeof entry.documentId === 'string') {
        entry.narration = await entryNarration(uid, entry, auth);
      }
    }
  });
}
