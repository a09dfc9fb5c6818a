import type { Context } from 'koa';
import type { Core, Struct } from '@strapi/strapi';
import { errors } from '@strapi/utils';
import { z } from 'zod';
import { describeConfigIssues, describeConfigProblems } from '../config/schema';
import { narrationCost } from '../narration/cost';
import { runtimeSettingsSchema } from '../services/settings';
import { SpeechServiceError } from '../speech-client';
import { rethrowForAdmin } from '../http/speech-service-errors';
import { getService } from '../utils';
import { ensureMayActOn } from './document-guard';
import { validate } from './validate';

/** Settings -> Speech: runtime settings, voices, cost figures. Never returns the API key. */

const estimateBody = z.object({
  contentType: z.string().min(1).max(200),
  documentId: z.string().min(1).max(64),
  locale: z.string().min(1).max(20).nullable().optional(),
  voiceId: z.string().min(1).max(200).optional(),
});

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
      averages: await getService('narrations').averageCharacters(),
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

  async voices(ctx: Context) {
    try {
      ctx.body = { voices: await getService('voices').list() };
    } catch (error) {
      rethrowForAdmin(ctx, error);
    }
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

  /** Characters and credits of a document's current text with the current voice and mode. */
  async estimate(ctx: Context) {
    const target = validate(estimateBody, ctx.request.body);
    await ensureMayActOn(ctx, target, 'read');
    const estimate = await getService('narrations').estimate(target.contentType, target.documentId, target.locale ?? null);
    if (!estimate) throw new errors.NotFoundError('This content is not narrated or does not exist.');
    ctx.body = estimate;
  },

  /** Cost of any text in both modes (the settings page's preview). */
  async cost(ctx: Context) {
    const { text } = validate(z.object({ text: z.string().max(1_000_000) }), ctx.request.body, 'text is required');
    ctx.body = { verbatim: narrationCost(text, '0'), preprocessed: narrationCost(text, '2') };
  },
});
