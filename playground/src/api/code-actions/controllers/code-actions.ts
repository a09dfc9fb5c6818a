import type { Core } from '@strapi/strapi';
import type { Context } from 'koa';

const ACTIONS = ['create', 'update', 'publish', 'unpublish', 'discardDraft', 'delete'] as const;

export default ({ strapi }: { strapi: Core.Strapi }) => ({
  async run(ctx: Context) {
    if (process.env.PLAYGROUND_CODE_ACTIONS !== 'true') return ctx.notFound();
    const { uid, action, params } = ctx.request.body ?? {};
    if (typeof uid !== 'string' || !uid.startsWith('api::') || !ACTIONS.includes(action))
      return ctx.badRequest('uid (api::…) and action required');
    const documents = strapi.documents(uid as never) as unknown as Record<(typeof ACTIONS)[number], (params: unknown) => Promise<unknown>>;
    ctx.body = { result: await documents[action as (typeof ACTIONS)[number]](params ?? {}) };
  },
});
