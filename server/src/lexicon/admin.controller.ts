import type { Context } from 'koa';
import { errors } from '@strapi/utils';
import { z } from 'zod/v3';
import type { HearLexiconRuleRequest } from '../../../shared/contracts/lexicon';
import { lexiconRuleSchema } from './config';
import { getService } from '../utils';
import { resolveVoiceId, sendSpeech } from '../voices';
import { accepts, validate } from '../http';

const hearBody = accepts<HearLexiconRuleRequest['body']>()(
  z.object({
    rule: lexiconRuleSchema.pick({ spoken: true, locale: true }),
    voiceId: z.string().trim().min(1).max(200).optional(),
  })
);

export default {
  /** The spoken form in the given voice, or the voice of the rule's locale (speech generation, cached). */
  async hear(ctx: Context) {
    const { rule, voiceId: chosen } = validate(hearBody, ctx.request.body ?? {}, 'Write how the term is spoken (rule.spoken).');
    const settings = await getService('settings').get();
    const voiceId =
      chosen ?? resolveVoiceId({ locale: rule.locale, localeVoices: settings.localeVoices, defaultVoiceId: settings.defaultVoiceId });
    if (!voiceId) throw new errors.ValidationError('Choose a default voice in Settings -> Speech first.');
    await sendSpeech(ctx, { voiceId, text: rule.spoken });
  },
};
