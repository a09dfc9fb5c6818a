import type { Context } from 'koa';
import { z } from 'zod/v3';
import * as Contract from '../../../shared/contracts/backfills';
import { personName } from '../credits';
import { accepts, contentTypeUid, optionalLocale, validate } from '../http';
import { getService } from '../utils';

const target = accepts<Contract.BackfillTarget>()(
  z
    .object({
      contentType: contentTypeUid,
      locale: optionalLocale,
      publishedBefore: z.string().datetime({ offset: true }).optional(),
    })
    .strict()
);
const params = z.object({ id: z.coerce.number().int().min(1).max(2_147_483_647) });
const actionParams = params.extend({ action: z.enum(Contract.BACKFILL_ACTIONS) });

/** Behind the admin JWT: `settings.read` to look, and `narrate` to start or steer one (routes.ts); the type and locale as the Content Manager decides. */
export default {
  async estimate(ctx: Context) {
    const body = validate(target, ctx.request.body, 'Name the content type (and its locale) to backfill.');
    ctx.body = (await getService('backfill').estimate(ctx.state.userAbility, body)) satisfies Contract.BackfillEstimateResponse;
  },

  async start(ctx: Context) {
    const body = validate(target, ctx.request.body, 'Name the content type (and its locale) to backfill.');
    ctx.status = 201;
    ctx.body = (await getService('backfill').start(
      ctx.state.userAbility,
      body,
      personName(ctx.state.user)
    )) satisfies Contract.BackfillStartResponse;
  },

  async list(ctx: Context) {
    ctx.body = (await getService('backfill').list(ctx.state.userAbility)) satisfies Contract.BackfillListResponse;
  },

  async findOne(ctx: Context) {
    const { id } = validate(params, ctx.params, 'No such backfill.');
    ctx.body = (await getService('backfill').findOne(ctx.state.userAbility, id)) satisfies Contract.BackfillResponse;
  },

  async act(ctx: Context) {
    const { id, action } = validate(actionParams, ctx.params, 'A backfill is paused, resumed or cancelled.');
    ctx.body = (await getService('backfill').act(ctx.state.userAbility, id, action)) satisfies Contract.BackfillActionResponse;
  },
};
