import type { Context } from 'koa';
import { errors } from '@strapi/utils';
import { z } from 'zod/v3';
import type * as Contract from '../../../shared/contracts/usage';
import { ensureMayActOn } from '../access/document-guard';
import { accepts, documentTarget, validate } from '../http/validate';
import { getService } from '../utils';

/** Credits for the admin: the usage view, the ledger's CSV, letting a narration through the budget. Shapes: shared/contracts/usage.ts. */

const usageQuery = z.object({ days: z.enum(['30', '90']).default('30') });
const letThroughBody = accepts<Contract.LetThroughRequest['body']>()(documentTarget);

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

  /** Sends one narration waiting for the budget this month, over it (the settings permission's call). */
  async letThrough(ctx: Context) {
    const target = validate(letThroughBody, ctx.request.body);
    const { contentType, documentId, locale } = target;
    // Only a document the caller may read in the Content Manager: nothing is read or sent for another.
    await ensureMayActOn(ctx, target, 'read');
    const articleId = getService('content').articleIdFor(contentType, documentId, locale ?? null);
    const row = await getService('narration-rows').findByArticleId(articleId);
    if (!row) throw new errors.NotFoundError('This document has no narration.');
    const released = await getService('budget').letThrough(row.id, new Date());
    ctx.body = { articleId, released } satisfies Contract.LetThroughResponse;
  },
};
