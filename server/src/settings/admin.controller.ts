import type { Context } from 'koa';
import type { Core, Struct } from '@strapi/strapi';
import { errors } from '@strapi/utils';
import { describeConfigIssues, describeConfigProblems } from './config-schema';
import { runtimeSettingsSchema } from './service';
import { SpeechServiceError } from '../speech-client';
import { getService } from '../utils';

/** Settings -> Speech: runtime settings, voices, cost figures. Never returns the API key. */

/** What this server offers the admin (older servers lack the routes behind these). */
const FEATURES = { voicePreview: true, transcription: true } as const;

export default ({ strapi }: { strapi: Core.Strapi }) => ({
  async get(ctx: Context) {
    const settings = getService('settings');
    const content = getService('content');
    const contentTypes = Object.values(strapi.contentTypes as Record<string, Struct.ContentTypeSchema>)
      .filter((ct) => ct.uid.startsWith('api::'))
      .map((ct) => ({
        uid: ct.uid as string,
        displayName: (ct.info?.displayName as string) ?? ct.uid,
        kind: ct.kind === 'singleType' ? 'singleType' : 'collectionType',
        draftAndPublish: Boolean(ct.options?.draftAndPublish),
        localized: Boolean((ct.pluginOptions as { i18n?: { localized?: boolean } } | undefined)?.i18n?.localized),
        // Text fields that are not private: the only ones a narration may read.
        fields: content.narratableFieldNames(ct.uid).map((name) => ({ name, type: ct.attributes[name].type as string })),
      }));
    const current = await settings.get();
    const locales = await content.siteLocales();
    ctx.body = {
      settings: current,
      contentTypes,
      locales,
      // The voice each locale is read in, and whether the voice list gives it another language.
      localeVoiceChecks: await getService('voices').checkLocales(locales, current),
      connection: settings.connection(),
      queue: await settings.queueState(),
      averages: await getService('narration-editor').averageCharacters(),
      features: FEATURES,
    };
  },

  /**
   * What the content manager needs to decide where to show narration UI. Any logged-in admin may
   * read it: editors without `settings.read` still see badges and the panel.
   */
  async narratedTypes(ctx: Context) {
    const { contentTypes } = await getService('settings').get();
    ctx.body = {
      contentTypes: Object.fromEntries(Object.entries(contentTypes).map(([uid, narration]) => [uid, { trigger: narration.trigger }])),
      features: FEATURES,
    };
  },

  async update(ctx: Context) {
    const parsed = runtimeSettingsSchema.safeParse(ctx.request.body);
    if (!parsed.success) {
      throw new errors.ValidationError(describeConfigIssues(parsed.error, ''), {
        errors: parsed.error.issues.map((issue) => ({ path: issue.path, message: issue.message })),
      });
    }
    // Only types of the site, only text fields that are not private: a narration is public and
    // leaves for the speech service, so it may never carry what the content API hides.
    const content = getService('content');
    const problems = content.contentTypesProblems(parsed.data.contentTypes ?? {});
    if (problems.length) throw new errors.ValidationError(describeConfigProblems(problems, ''), { errors: problems });
    ctx.body = { settings: await getService('settings').update(parsed.data) };
  },

  /** Test connection: the voice list is the cheapest authenticated call that costs no credits. */
  async testConnection(ctx: Context) {
    try {
      const voices = await getService('voices').list({ fresh: true });
      ctx.body = { ok: true, voices: voices.length };
    } catch (error) {
      if (error instanceof SpeechServiceError) {
        ctx.body = { ok: false, code: error.code, message: error.message };
        return;
      }
      throw error;
    }
  },
});
