import type { Context } from 'koa';
import { z } from 'zod/v3';
import * as Contract from '../../../shared/contracts/queue';
import { editorOrigin } from '../credits';
import { accepts, contentTypeUid, validate } from '../http';
import { getService } from '../utils';

const filter = z.object({
  contentType: contentTypeUid.optional(),
  locale: z.string().min(1).max(20).optional(),
  reason: z
    .string()
    .regex(/^[A-Z0-9_]{1,64}$|^none$/, 'must be an error code, or none')
    .optional(),
});
const page = (fallback: number, max: number) => z.coerce.number().int().min(1).max(max).default(fallback);

const summaryQuery = accepts<Contract.QueueSummaryRequest['query']>()(z.object({ watch: z.string().max(30_000).optional() }));
const entriesQuery = accepts<Contract.QueueEntriesRequest['query']>()(
  filter.extend({
    list: z.enum(['failed', 'waiting']),
    page: z.string().optional(),
    pageSize: z.string().optional(),
  })
);
const pageOf = z.object({ page: page(1, 10_000), pageSize: page(Contract.QUEUE_PAGE_SIZE.default, Contract.QUEUE_PAGE_SIZE.max) });
const articleIds = z.array(z.string().min(1).max(255)).min(1).max(Contract.QUEUE_ACTION_MAX);
const selection = accepts<Contract.QueueSelection>()(
  z.union([z.object({ articleIds }).strict(), z.object({ all: z.literal(true), filter: filter.optional() }).strict()])
);
const cancelBody = accepts<Contract.QueueCancelRequest['body']>()(z.object({ articleIds }));

/** Behind the admin JWT: `settings.read` to look, and `narrate` to act (routes.ts); each row as the Content Manager decides. */
export default {
  async summary(ctx: Context) {
    const { watch } = validate(summaryQuery, ctx.query);
    const watched = (watch ?? '').split(',').filter(Boolean);
    ctx.body = (await getService('queue-page').summary(ctx.state.userAbility, watched)) satisfies Contract.QueueSummaryResponse;
  },

  async entries(ctx: Context) {
    const { list, page, pageSize, ...rest } = validate(entriesQuery, ctx.query);
    const paging = validate(pageOf, { page: page ?? undefined, pageSize: pageSize ?? undefined }, 'Invalid page.');
    ctx.body = (await getService('queue-page').entries(ctx.state.userAbility, list, rest, paging)) satisfies Contract.QueueEntriesResponse;
  },

  async estimateRetry(ctx: Context) {
    const chosen = validate(selection, ctx.request.body, 'Name the failures (articleIds), or all: true.');
    ctx.body = (await getService('queue-page').estimateRetry(ctx.state.userAbility, chosen)) satisfies Contract.QueueRetryEstimateResponse;
  },

  async retry(ctx: Context) {
    const chosen = validate(selection, ctx.request.body, 'Name the failures (articleIds), or all: true.');
    const origin = editorOrigin('retry', ctx.state.user);
    ctx.body = (await getService('queue-page').retry(ctx.state.userAbility, chosen, origin)) satisfies Contract.QueueRetryResponse;
  },

  async cancel(ctx: Context) {
    const { articleIds: named } = validate(cancelBody, ctx.request.body, 'Name the narrations to cancel (articleIds).');
    ctx.body = (await getService('queue-page').cancel(ctx.state.userAbility, named)) satisfies Contract.QueueCancelResponse;
  },
};
