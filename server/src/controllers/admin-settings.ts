import type { Core } from '@strapi/strapi';
import { z } from 'zod';
import { describeConfigIssues } from '../config/schema';
import { narrationCost } from '../narration/cost';
import { runtimeSettingsSchema } from '../services/settings';
import { narrationService } from '../services';
import { SpeechServiceError } from '../speech-client';
import { sendServiceError } from './speech-service-errors';
import { mayActOn } from './document-guard';
import { sendError, sendValidationError } from './http-error';

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
  async get(ctx: any) {
    const service = narrationService(strapi);
    const contentTypes = Object.values(strapi.contentTypes as Record<string, any>)
      .filter((ct) => ct.uid.startsWith('api::'))
      .map((ct) => ({
        uid: ct.uid as string,
        displayName: (ct.info?.displayName as string) ?? ct.uid,
        kind: ct.kind === 'singleType' ? 'singleType' : 'collectionType',
        draftAndPublish: Boolean(ct.options?.draftAndPublish),
        localized: Boolean(ct.pluginOptions?.i18n?.localized),
        // Text fields that are not private: the only ones a narration may read.
        fields: service.content.narratableFieldNames(ct.uid).map((name) => ({ name, type: ct.attributes[name].type as string })),
      }));
    ctx.body = {
      settings: await service.settings.get(),
      contentTypes,
      connection: {
        apiKeyConfigured: Boolean(service.config.apiKey),
        baseUrl: service.config.baseUrl,
        webUrl: service.config.webUrl,
        callbackUrl: service.callbackUrl(),
        voiceSource: service.config.voiceSource,
      },
      queue: await service.settings.queueState(),
      averages: await service.averageCharacters(),
      features: FEATURES,
    };
  },

  /**
   * What the content manager needs to decide where to show narration UI. Any logged-in admin may
   * read it: editors without `settings.read` still see badges and the panel.
   */
  async narratedTypes(ctx: any) {
    const { contentTypes } = await narrationService(strapi).settings.get();
    ctx.body = {
      contentTypes: Object.fromEntries(Object.entries(contentTypes).map(([uid, narration]) => [uid, { trigger: narration.trigger }])),
      features: FEATURES,
    };
  },

  async update(ctx: any) {
    const parsed = runtimeSettingsSchema.safeParse(ctx.request.body);
    if (!parsed.success) {
      return sendError(ctx, 400, describeConfigIssues(parsed.error).replace(/speech\.config\./g, ''), {
        errors: parsed.error.issues.map((issue) => ({ path: issue.path, message: issue.message })),
      });
    }
    // Only types of the site, only text fields that are not private: a narration is public and
    // leaves for the speech service, so it may never carry what the content API hides.
    const content = narrationService(strapi).content;
    const problems = Object.entries(parsed.data.contentTypes ?? {}).flatMap(([uid, narration]) => content.configProblems(uid, narration));
    if (problems.length) {
      return sendError(ctx, 400, problems.map((problem) => problem.message).join('; '), { errors: problems });
    }
    const settings = await narrationService(strapi).settings.update(parsed.data);
    ctx.body = { settings };
  },

  async voices(ctx: any) {
    try {
      ctx.body = { voices: await narrationService(strapi).voices() };
    } catch (error) {
      sendServiceError(ctx, error);
    }
  },

  /** Test connection: the voice list is the cheapest authenticated call that costs no credits. */
  async testConnection(ctx: any) {
    try {
      const voices = await narrationService(strapi).voices({ fresh: true });
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
  async estimate(ctx: any) {
    const parsed = estimateBody.safeParse(ctx.request.body);
    if (!parsed.success) return sendValidationError(ctx, parsed.error);
    if (!(await mayActOn(strapi, ctx, parsed.data, 'read'))) return;
    const estimate = await narrationService(strapi).estimate(parsed.data.contentType, parsed.data.documentId, parsed.data.locale ?? null);
    if (!estimate) return sendError(ctx, 404, 'This content is not narrated or does not exist.');
    ctx.body = estimate;
  },

  /** Cost of any text in both modes (the settings page's preview). */
  async cost(ctx: any) {
    const parsed = z.object({ text: z.string().max(1_000_000) }).safeParse(ctx.request.body);
    if (!parsed.success) return sendError(ctx, 400, 'text is required');
    ctx.body = { verbatim: narrationCost(parsed.data.text, '0'), preprocessed: narrationCost(parsed.data.text, '2') };
  },
});
