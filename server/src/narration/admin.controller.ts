import type { Context } from 'koa';
import { errors } from '@strapi/utils';
import { z } from 'zod/v3';
import type * as Contract from '../../../shared/contracts/narrations';
import type {
  PassagesRequest,
  PassagesResponse,
  SetPassageVoiceRequest,
  SetPassageVoiceResponse,
} from '../../../shared/contracts/passages';
import type { LetThroughRequest, LetThroughResponse } from '../../../shared/contracts/usage';
import { MAX_PREVIEW_TEXT_LENGTH } from '../../../shared/contracts/voices';
import { LEXICON_AFFECTED_PAGE_SIZE, type LexiconAffectedRequest, type LexiconAffectedResponse } from '../../../shared/contracts/lexicon';
import { documentKey, ensureMayActOn, permittedDocuments } from '../access';
import type { NarrationRow } from '../queue';
import { getService } from '../utils';
import { accepts, contentTypeUid, documentTarget, manyTarget, optionalLocale, validate } from '../http';
import { editorOrigin } from '../credits';
import { sendSpeech } from '../voices';
import { narrationCost } from './domain/cost';
import { adminNarrationView, adminNarrationViewWithFiles } from './domain/admin-view';
import { versionsView } from './domain/versions-view';

/** Behind the admin JWT and the plugin's RBAC actions. */

const statusesBody = accepts<Contract.NarrationStatusesRequest['body']>()(
  z.object({ contentType: contentTypeUid, documentIds: z.array(z.string().min(1).max(64)).max(500) })
);
const documentQuery = accepts<Contract.DocumentNarrationsRequest['params'] & Contract.DocumentNarrationsRequest['query']>()(documentTarget);
const estimateManyBody = accepts<Contract.EstimateManyRequest['body']>()(manyTarget);
const narrateManyBody = accepts<Contract.NarrateManyRequest['body']>()(manyTarget);
const narrateBody = accepts<Contract.NarrateRequest['body']>()(documentTarget);
const regenerateBody = accepts<Contract.RegenerateRequest['body']>()(documentTarget);
const cancelBody = accepts<Contract.CancelRequest['body']>()(documentTarget);
const paragraphsBody = accepts<Contract.ParagraphsRequest['body']>()(documentTarget);
const passagesBody = accepts<PassagesRequest['body']>()(documentTarget);
const passageVoiceBody = accepts<SetPassageVoiceRequest['body']>()(
  documentTarget.extend({
    passageKey: z.string().regex(/^[0-9a-f]{16}$/, 'must be a passage key from the list of passages'),
    voiceId: z.string().min(1).max(200).nullable(),
  })
);
const voiceBody = accepts<Contract.SetVoiceRequest['body']>()(documentTarget.extend({ voiceId: z.string().min(1).max(200).nullable() }));
const estimateBody = accepts<Contract.EstimateRequest['body']>()(
  z.object({
    contentType: z.string().min(1).max(200),
    documentId: z.string().min(1).max(64),
    locale: optionalLocale,
    voiceId: z.string().min(1).max(200).optional(),
  })
);
const letThroughBody = accepts<LetThroughRequest['body']>()(documentTarget);
const costBody = accepts<Contract.CostRequest['body']>()(z.object({ text: z.string().max(1_000_000) }));
const lexiconAffectedBody = accepts<LexiconAffectedRequest['body']>()(
  z.object({
    contentType: contentTypeUid,
    locale: optionalLocale,
    page: z.number().int().min(1).max(10_000).default(1),
    pageSize: z.number().int().min(1).max(LEXICON_AFFECTED_PAGE_SIZE.max).default(LEXICON_AFFECTED_PAGE_SIZE.default),
  })
);
const listenBody = accepts<Contract.ListenRequest['body']>()(documentTarget.extend({ index: z.number().int().min(0).max(10_000) }));

async function readableRows<Row extends Pick<NarrationRow, 'targetDocumentId' | 'targetLocale'>>(
  ctx: Context,
  contentType: string,
  rows: Row[]
): Promise<Row[]> {
  if (rows.length === 0) return rows;
  const targets = rows.map((row) => ({ documentId: row.targetDocumentId, locale: row.targetLocale }));
  const permitted = await getService('document-permissions').permitted(ctx.state.userAbility, contentType, targets, 'read');
  return rows.filter((row) => permitted.has(documentKey(row.targetDocumentId, row.targetLocale)));
}

export default {
  async statuses(ctx: Context) {
    const { contentType, documentIds } = validate(statusesBody, ctx.request.body);
    // Two independent reads, side by side: on a database server each is a round trip.
    const [found, queue] = await Promise.all([
      getService('narration-editor').findForDocuments(contentType, documentIds),
      getService('queue').readState(),
    ]);
    const rows = await readableRows(ctx, contentType, found);
    const checks = await getService('verification-views').forList(rows);
    ctx.body = {
      data: rows.map((row) => adminNarrationView(row, checks.get(row.id) ?? null)),
      queue,
    } satisfies Contract.NarrationStatusesResponse;
  },

  async forDocument(ctx: Context) {
    const target = validate(documentQuery, {
      contentType: ctx.query.contentType,
      documentId: ctx.params.documentId,
      locale: ctx.query.locale ?? null,
    });
    // Side by side, as `statuses` does: on a database server each read is a round trip.
    const [found, queue] = await Promise.all([
      getService('narration-editor').findForDocument(target.contentType, target.documentId),
      getService('queue').readState(),
    ]);
    const rows = await readableRows(ctx, target.contentType, found);
    const selected = target.locale ? rows.filter((row) => row.targetLocale === target.locale || row.targetLocale === null) : rows;
    const media = getService('queue');
    const checks = await getService('verification-views').forNarrations(selected);
    ctx.body = {
      data: await Promise.all(
        selected.map((row) => adminNarrationViewWithFiles(row, (file) => media.readableUrl(file), checks.get(row.id) ?? null))
      ),
      queue,
    } satisfies Contract.DocumentNarrationsResponse;
  },

  /** The stored versions of one narration, newest first, with their costs and checks. */
  async versions(ctx: Context) {
    const articleId = validate(z.string().min(1).max(255), ctx.params.articleId, 'Invalid articleId.');
    const row = await getService('queue').reads.findByArticleId(articleId);
    const [readable] = row ? await readableRows(ctx, row.contentType, [row]) : [];
    if (!readable) throw new errors.NotFoundError('No narration for this article.');
    const [spending, checks] = await Promise.all([
      getService('ledger').entriesOfNarration(readable.id),
      getService('verification-views').history(readable),
    ]);
    ctx.body = { data: versionsView(readable.revisions ?? [], spending, checks) } satisfies Contract.NarrationVersionsResponse;
  },

  async narrateNow(ctx: Context) {
    const target = await ensureMayActOn(ctx, validate(narrateBody, ctx.request.body), 'narrate');
    ctx.body = (await getService('narration-editor').narrateNow(
      target.contentType,
      target.documentId,
      target.locale,
      editorOrigin('narrate-now', ctx.state.user)
    )) satisfies Contract.NarrateResponse;
  },

  async regenerate(ctx: Context) {
    const target = await ensureMayActOn(ctx, validate(regenerateBody, ctx.request.body), 'narrate');
    ctx.body = (await getService('narration-editor').regenerate(
      target.contentType,
      target.documentId,
      target.locale,
      editorOrigin('regenerate', ctx.state.user)
    )) satisfies Contract.RegenerateResponse;
  },

  async estimateMany(ctx: Context) {
    const target = validate(estimateManyBody, ctx.request.body);
    // The preview of narrate-many: what the caller may read and also narrate.
    const readable = await permittedDocuments(ctx, target, 'read');
    const narratable = new Set((await permittedDocuments(ctx, target, 'narrate')).allowed);
    const allowed = readable.allowed.filter((documentId) => narratable.has(documentId));
    const refused = target.documentIds.filter((documentId) => !allowed.includes(documentId));
    ctx.body = {
      ...(await getService('narration-editor').estimateMany(target.contentType, allowed, readable.locale)),
      refused,
    } satisfies Contract.EstimateManyResponse;
  },

  async narrateMany(ctx: Context) {
    const target = validate(narrateManyBody, ctx.request.body);
    const { allowed, refused, locale } = await permittedDocuments(ctx, target, 'narrate');
    ctx.body = {
      ...(await getService('narration-editor').narrateMany(target.contentType, allowed, locale, editorOrigin('bulk', ctx.state.user))),
      refused,
    } satisfies Contract.NarrateManyResponse;
  },

  async setVoice(ctx: Context) {
    const target = await ensureMayActOn(ctx, validate(voiceBody, ctx.request.body), 'narrate');
    ctx.body = (await getService('narration-editor').setVoice(
      target.contentType,
      target.documentId,
      target.locale,
      target.voiceId
    )) satisfies Contract.SetVoiceResponse;
  },

  async paragraphs(ctx: Context) {
    const target = await ensureMayActOn(ctx, validate(paragraphsBody, ctx.request.body), 'read');
    const result = await getService('narration-editor').paragraphs(target.contentType, target.documentId, target.locale);
    if (!result) throw new errors.NotFoundError('This content is not narrated or does not exist.');
    ctx.body = result satisfies Contract.ParagraphsResponse;
  },

  async passages(ctx: Context) {
    const target = await ensureMayActOn(ctx, validate(passagesBody, ctx.request.body), 'read');
    const result = await getService('narration-editor').passages(target.contentType, target.documentId, target.locale);
    if (!result) throw new errors.NotFoundError('This content is not narrated or does not exist.');
    ctx.body = result satisfies PassagesResponse;
  },

  async setPassageVoice(ctx: Context) {
    const target = await ensureMayActOn(ctx, validate(passageVoiceBody, ctx.request.body), 'narrate');
    ctx.body = (await getService('narration-editor').setPassageVoice(
      target.contentType,
      target.documentId,
      target.locale,
      target.passageKey,
      target.voiceId
    )) satisfies SetPassageVoiceResponse;
  },

  async cancel(ctx: Context) {
    const target = await ensureMayActOn(ctx, validate(cancelBody, ctx.request.body), 'narrate');
    await getService('narrations').cancelDocument(target.contentType, target.documentId, target.locale);
    ctx.body = { cancelled: true } satisfies Contract.CancelResponse;
  },

  /** Sends one narration waiting for the budget this month, over it (the settings permission's call). */
  async letThrough(ctx: Context) {
    // Only a document the caller may read in the Content Manager, in the locale that was checked: nothing is read or sent for another.
    const { contentType, documentId, locale } = await ensureMayActOn(ctx, validate(letThroughBody, ctx.request.body), 'read');
    const articleId = getService('content').articleIdFor(contentType, documentId, locale);
    const row = await getService('queue').reads.findByArticleId(articleId);
    if (!row) throw new errors.NotFoundError('This document has no narration.');
    const released = await getService('budget').letThrough(row.id, new Date());
    ctx.body = { articleId, released } satisfies LetThroughResponse;
  },

  async resumeQueue(ctx: Context) {
    ctx.body = { queue: await getService('narration-editor').resumeQueue() } satisfies Contract.ResumeQueueResponse;
  },

  async overview(ctx: Context) {
    ctx.body = (await getService('narration-editor').overview()) satisfies Contract.OverviewResponse;
  },

  async estimate(ctx: Context) {
    const target = await ensureMayActOn(ctx, validate(estimateBody, ctx.request.body), 'read');
    const estimate = await getService('narration-editor').estimate(target.contentType, target.documentId, target.locale);
    if (!estimate) throw new errors.NotFoundError('This content is not narrated or does not exist.');
    ctx.body = estimate satisfies Contract.EstimateResponse;
  },

  async cost(ctx: Context) {
    const { text } = validate(costBody, ctx.request.body, 'text is required');
    ctx.body = { verbatim: narrationCost(text, '0'), preprocessed: narrationCost(text, '2') } satisfies Contract.CostResponse;
  },

  /** Only documents the caller may read are looked at; nothing is submitted. */
  async lexiconAffected(ctx: Context) {
    const target = validate(lexiconAffectedBody, ctx.request.body ?? {});
    // The locale the documents are read in is the one their permission is checked in.
    const locale = await getService('document-permissions').localeOf(target.contentType, target.locale ?? null);
    const readable = async (documentIds: string[]) =>
      new Set((await permittedDocuments(ctx, { contentType: target.contentType, documentIds, locale }, 'read')).allowed);
    const result = await getService('lexicon-affected').affected(target.contentType, locale, target, readable);
    if (!result) throw new errors.NotFoundError('This content type is not narrated.');
    ctx.body = result satisfies LexiconAffectedResponse;
  },

  /** The text is read on the server, so this route speaks article text only, never arbitrary input. */
  async listen(ctx: Context) {
    const { contentType, documentId, locale, index } = await ensureMayActOn(ctx, validate(listenBody, ctx.request.body ?? {}), 'narrate');
    const draft = await getService('narration-editor').paragraphs(contentType, documentId, locale);
    if (!draft) throw new errors.NotFoundError('This content is not narrated or does not exist.');
    const paragraph = draft.paragraphs[index];
    if (!paragraph) {
      throw new errors.ValidationError(`There is no paragraph ${index + 1}: the text has ${draft.paragraphs.length}.`, {
        paragraphs: draft.paragraphs.length,
      });
    }
    if (!draft.voiceId) throw new errors.ValidationError('Choose a default voice in Settings -> Speech first.');
    if (paragraph.text.length > MAX_PREVIEW_TEXT_LENGTH) {
      throw new errors.ValidationError(
        `This paragraph is too long to listen to on its own: at most ${MAX_PREVIEW_TEXT_LENGTH} characters.`
      );
    }
    const account = getService('budget').previewAccount({
      kind: 'paragraph-preview',
      origin: editorOrigin('paragraph-preview', ctx.state.user),
      voiceId: draft.voiceId,
      target: { articleId: draft.articleId, contentType, targetDocumentId: documentId, targetLocale: locale, title: null },
    });
    await sendSpeech(ctx, { voiceId: draft.voiceId, text: paragraph.text }, account);
  },
};
