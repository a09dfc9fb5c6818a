import type { Core } from '@strapi/strapi';
import type { ContentTypeNarrationConfig } from '../config/schema';
import type { EffectiveSettings } from '../services/settings';
import { describeArticle } from './article';

/**
 * Reads the content that gets narrated: the published version of a document (or the saved one,
 * for types without draft & publish), and describes it with the current settings.
 */
export function createContentReader(strapi: Core.Strapi) {
  function schema(uid: string) {
    return strapi.contentType(uid as never) as unknown as
      | { options?: { draftAndPublish?: boolean }; pluginOptions?: { i18n?: { localized?: boolean } }; attributes: Record<string, { type: string }> }
      | undefined;
  }

  return {
    exists(uid: string): boolean {
      return Boolean(schema(uid));
    },
    isLocalized(uid: string): boolean {
      return Boolean(schema(uid)?.pluginOptions?.i18n?.localized);
    },
    hasDraftAndPublish(uid: string): boolean {
      return Boolean(schema(uid)?.options?.draftAndPublish);
    },

    /** The version front ends see: published for draft & publish types, the only one otherwise. */
    async loadLive(uid: string, documentId: string, locale: string | null): Promise<(Record<string, unknown> & { documentId: string; locale?: string | null }) | null> {
      const params: Record<string, unknown> = { documentId };
      if (locale && this.isLocalized(uid)) params.locale = locale;
      if (this.hasDraftAndPublish(uid)) params.status = 'published';
      const entry = await strapi.documents(uid as never).findOne(params as never);
      return (entry as never) ?? null;
    },

    describe(uid: string, entry: Record<string, unknown> & { documentId: string; locale?: string | null }, narration: ContentTypeNarrationConfig, settings: EffectiveSettings, voiceOverride?: string | null) {
      return describeArticle({
        contentType: uid,
        entry,
        narration,
        attributes: schema(uid)?.attributes,
        localized: this.isLocalized(uid),
        voiceId: voiceOverride || settings.defaultVoiceId,
        preprocessType: settings.preprocessType,
      });
    },
  };
}

export type ContentReader = ReturnType<typeof createContentReader>;
