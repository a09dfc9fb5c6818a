import type { Context } from 'koa';
import { z } from 'zod/v3';
import type * as Contract from '../../../shared/contracts/usage';
import { validate } from '../http';
import { getService } from '../utils';

const usageQuery = z.object({ days: z.enum(['30', '90']).default('30') });

export default {
  async usage(ctx: Context) {
    const { days } = validate(usageQuery, ctx.query, 'days must be 30 or 90.');
    ctx.body = (await getService('usage').usage(ctx.state.userAbility, Number(days))) satisfies Contract.GetUsageResponse;
  },

  async ledgerCsv(ctx: Context) {
    ctx.set('Content-Type', 'text/csv; charset=utf-8');
    ctx.set('Content-Disposition', 'attachment; filename="speech-ledger.csv"');
    ctx.set('Cache-Control', 'no-store');
    ctx.body = getService('usage').ledgerCsv(ctx.state.userAbility);
  },
};
