import type { Context } from 'koa';
import { errors } from '@strapi/utils';
import { z } from 'zod/v3';
import type * as Contract from '../../../shared/contracts/insights';
import { ensureMayActOn } from '../access';
import { documentTarget, validate } from '../http';
import { getService } from '../utils';

/** Read access follows the Content Manager's: on the document, or on each counted document for the site. */

const days = z.enum(['7', '30', '90']).default('30');
const siteQuery = z.object({ days });
const documentQuery = documentTarget.omit({ documentId: true }).extend({ days });

export default {
  async document(ctx: Context) {
    const query = validate(documentQuery, ctx.query, 'contentType is required; days must be 7, 30 or 90.');
    const documentId = String(ctx.params.documentId ?? '');
    if (!documentId || documentId.length > 64) throw new errors.ValidationError('Invalid documentId.');
    const target = await ensureMayActOn(ctx, { ...query, documentId }, 'read');
    const articleId = getService('content').articleIdFor(target.contentType, target.documentId, target.locale);
    ctx.body = (await getService('insights-views').document(articleId, Number(query.days))) satisfies Contract.GetDocumentInsightsResponse;
  },

  async site(ctx: Context) {
    const { days: span } = validate(siteQuery, ctx.query, 'days must be 7, 30 or 90.');
    ctx.body = (await getService('insights-views').site(ctx.state.userAbility, Number(span))) satisfies Contract.GetInsightsResponse;
  },

  async csv(ctx: Context) {
    const { days: span } = validate(siteQuery, ctx.query, 'days must be 7, 30 or 90.');
    const body = await getService('insights-views').csv(ctx.state.userAbility, Number(span));
    ctx.set('Content-Type', 'text/csv; charset=utf-8');
    ctx.set('Content-Disposition', 'attachment; filename="speech-listening.csv"');
    ctx.set('Cache-Control', 'no-store');
    ctx.body = body;
  },
};
