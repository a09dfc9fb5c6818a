import type { Context } from 'koa';
import type { Core, Struct } from '@strapi/strapi';
import { errors } from '@strapi/utils';
import type * as Contract from '../../../shared/contracts/settings';
import { pluginConfig, runtimeSettingsSchema } from '../config';
import { describeConfigIssues, describeConfigProblems } from '../settings';
import { describeContentType, fileTypesView, narratedTypesView, SERVER_FEATURES } from './admin-view';
import { SpeechServiceError } from '../speech-client';
import { accepts } from '../http';
import { getService } from '../utils';
import { ensureVoicesListed, type AskedVoice } from '../voices';

/** Never returns the API key. Shapes: shared/contracts/settings.ts. */

const updateBody = accepts<Contract.UpdateSettingsRequest['body']>()(runtimeSettingsSchema);

/** Only voices not in effect already are looked up in the voice list. */
function newVoices(changes: Contract.UpdateSettingsRequest['body'], current: Contract.SpeechSettings): AskedVoice[] {
  const asked: AskedVoice[] = [];
  if (changes.defaultVoiceId !== undefined && changes.defaultVoiceId !== current.defaultVoiceId)
    asked.push({ path: ['defaultVoiceId'], voiceId: changes.defaultVoiceId });
  for (const key of ['localeVoices', 'quoteVoices'] as const)
    for (const [locale, voiceId] of Object.entries(changes[key] ?? {}))
      if (current[key][locale] !== voiceId) asked.push({ path: [key, locale], voiceId });
  return asked;
}

export default ({ strapi }: { strapi: Core.Strapi }) => ({
  async get(ctx: Context) {
    const settings = getService('settings');
    const content = getService('content');
    const contentTypes = Object.values(strapi.contentTypes as Record<string, Struct.ContentTypeSchema>)
      .filter((ct) => ct.uid.startsWith('api::'))
      .map((ct) => describeContentType(ct, content.narratableFieldNames(ct.uid)));
    const current = await settings.get();
    const locales = await content.siteLocales();
    ctx.body = {
      settings: current,
      contentTypes,
      locales,
      localeVoiceChecks: await getService('voices').checkLocales(locales, current),
      connection: settings.connection(),
      queue: await getService('queue').readState(),
      averages: await getService('narration-editor').averageCharacters(),
      features: SERVER_FEATURES,
      // So the page sends a type's settings back only where they differ from the file's.
      fileContentTypes: fileTypesView(pluginConfig(strapi).contentTypes),
    } satisfies Contract.GetSettingsResponse;
  },

  /** Any admin: editors without `settings.read` still see badges and the panel. */
  async narratedTypes(ctx: Context) {
    const { contentTypes } = await getService('settings').get();
    ctx.body = narratedTypesView(contentTypes) satisfies Contract.GetNarratedTypesResponse;
  },

  async update(ctx: Context) {
    const parsed = updateBody.safeParse(ctx.request.body);
    if (!parsed.success) {
      throw new errors.ValidationError(describeConfigIssues(parsed.error, ''), {
        errors: parsed.error.issues.map((issue) => ({ path: issue.path, message: issue.message })),
      } satisfies Contract.UpdateSettingsErrorDetails);
    }
    // Only types of the site, only text fields that are not private: a narration is public and
    // leaves for the speech service, so it may never carry what the content API hides.
    const content = getService('content');
    const problems = content.contentTypesProblems(parsed.data.contentTypes ?? {});
    if (problems.length) {
      throw new errors.ValidationError(describeConfigProblems(problems, ''), {
        errors: problems,
      } satisfies Contract.UpdateSettingsErrorDetails);
    }
    await ensureVoicesListed(getService('voices'), newVoices(parsed.data, await getService('settings').get()));
    const settings = await getService('settings').update(parsed.data);
    if (parsed.data.budget) await getService('budget').releaseHeld();
    ctx.body = { settings } satisfies Contract.UpdateSettingsResponse;
  },

  /** The voice list is the cheapest authenticated call that costs no credits. */
  async testConnection(ctx: Context) {
    try {
      const voices = await getService('voices').list({ fresh: true });
      ctx.body = { ok: true, voices: voices.length } satisfies Contract.TestConnectionResponse;
    } catch (error) {
      if (error instanceof SpeechServiceError) {
        ctx.body = { ok: false, code: error.code, message: error.message } satisfies Contract.TestConnectionResponse;
        return;
      }
      throw error;
    }
  },
});
