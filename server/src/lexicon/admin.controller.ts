import type { Context } from 'koa';
import { errors } from '@strapi/utils';
import { z } from 'zod/v3';
import {
  LEXICON_AFFECTED_PAGE_SIZE,
  type HearLexiconRuleRequest,
  type LexiconAffectedRequest,
  type LexiconAffectedResponse,
} from '../../../shared/contracts/lexicon';
import { lexiconRuleSchema } from '../settings/lexicon-schema';
import { getService } from '../utils';
import { resolveVoiceId } from '../voices/resolve';
import { sendSpeech } from '../voices/send-speech';
import { permittedDocuments } from '../access/document-guard';
import { accepts, contentTypeUid, optionalLocale, validate } from '../http/validate';

/**
 * The pronunciation lexicon in Settings -> Speech and the bulk dialog: hear a rule, see what it
 * would change. Shapes: shared/contracts/lexicon.ts.
 */

const hearBody = accepts<HearLexiconRuleRequest['body']>()(
  z.object({
    rule: lexiconRuleSchema.pick({ spoken: true, locale: true }),
    voiceId: z.string().trim().min(1).max(200).optional(),
  })
);

const affectedBody = accepts<LexiconAffectedRequest['body']>()(
  z.object({
    contentType: contentTypeUid,
    locale: optionalLocale,
    page: z.number().int().min(1).max(10_000).default(1),
    pageSize: z.number().int().min(1).max(LEXICON_AFFECTED_PAGE_SIZE.max).default(LEXICON_AFFECTED_PAGE_SIZE.default),
  })
);

export default {
  /**
   * POST /speech/lexicon/hear { rule: { spoken, locale? }, voiceId? } -> audio/mpeg: the spoken
   * form, in the given voice or the voice of the rule's locale (speech generation, cached).
   */
  async hear(ctx: Context) {
    const { rule, voiceId: chosen } = validate(hearBody, ctx.request.body ?? {}, 'Write how the term is spoken (rule.spoken).');
    const settings = await getService('settings').get();
    const voiceId =
      chosen ?? resolveVoiceId({ locale: rule.locale, localeVoices: settings.localeVoices, defaultVoiceId: settings.defaultVoiceId });
    if (!voiceId) throw new errors.ValidationError('Choose a default voice in Settings -> Speech first.');
    await sendSpeech(ctx, { voiceId, text: rule.spoken });
  },

  /**
   * POST /speech/lexicon/affected { contentType, locale?, page?, pageSize? }: which published
   * documents of one page the current lexicon would change, and what narrating them again would
   * cost. Only documents the caller may read are looked at; nothing is submitted.
   */
  async affected(ctx: Context) {
    const target = validate(affectedBody, ctx.request.body ?? {});
    // The locale the documents are read in is the one their permission is checked in.
    const locale = await getService('document-permissions').localeOf(target.contentType, target.locale ?? null);
    const readable = async (documentIds: string[]) =>
      new Set((await permittedDocuments(ctx, { contentType: target.contentType, documentIds, locale }, 'read')).allowed);
    const result = await getService('lexicon').affected(target.contentType, locale, target, readable);
    if (!result) throw new errors.NotFoundError('This content type is not narrated.');
    ctx.body = result satisfies LexiconAffectedResponse;
  },
};
