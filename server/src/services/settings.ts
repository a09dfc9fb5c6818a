import type { Core } from '@strapi/strapi';
import { z } from 'zod';
import { contentTypeNarrationSchema, type ContentTypeNarrationConfig, type PluginConfig } from '../config/schema';
import type { PreprocessType } from '../narration/cost';
import { effectiveTrigger } from '../narration/triggers';
import { createVoiceOverrides, type VoiceOverrideTarget } from '../narration/voice-overrides';

/**
 * Settings an editor may change at run time (default voice, preprocessType, per-type narration)
 * live in the plugin store and override the file config. The publish path reads them on every
 * document action, so they are cached in memory for a few seconds.
 */

export const runtimeSettingsSchema = z
  .object({
    defaultVoiceId: z.string().min(1).max(200),
    preprocessType: z.enum(['0', '2']),
    contentTypes: z.record(z.string(), contentTypeNarrationSchema),
  })
  .partial()
  .strict();
export type RuntimeSettings = z.infer<typeof runtimeSettingsSchema>;

export interface EffectiveSettings {
  defaultVoiceId: string;
  preprocessType: PreprocessType;
  contentTypes: Record<string, ContentTypeNarrationConfig>;
}

/** Queue-wide state: a 402 or a rejected key pauses every submission, not one article. */
export interface QueueState {
  paused: boolean;
  pausedUntil: string | null;
  pauseCode: string | null;
  pauseReason: string | null;
  creditsRemaining: number | null;
  creditsRequired: number | null;
  creditsSeenAt: string | null;
}

const EMPTY_QUEUE_STATE: QueueState = {
  paused: false,
  pausedUntil: null,
  pauseCode: null,
  pauseReason: null,
  creditsRemaining: null,
  creditsRequired: null,
  creditsSeenAt: null,
};

const CACHE_MS = 5_000;

export function createSettingsService(strapi: Core.Strapi, config: PluginConfig) {
  const store = () => strapi.store({ type: 'plugin', name: 'speech' });
  const voiceOverrides = createVoiceOverrides(strapi);
  let cached: { value: EffectiveSettings; at: number } | null = null;

  function merge(runtime: RuntimeSettings): EffectiveSettings {
    return {
      defaultVoiceId: runtime.defaultVoiceId ?? config.defaultVoiceId,
      preprocessType: runtime.preprocessType ?? config.preprocessType,
      contentTypes: withTypeTriggers({ ...config.contentTypes, ...withFileSwitches(runtime.contentTypes ?? {}) }),
    };
  }

  /** Every narrated type with the trigger that applies to it: off, or its type's own. */
  function withTypeTriggers(types: Record<string, ContentTypeNarrationConfig>): Record<string, ContentTypeNarrationConfig> {
    const hasDraftAndPublish = (uid: string) => Boolean((strapi.contentType(uid as never) as unknown as { options?: { draftAndPublish?: boolean } } | undefined)?.options?.draftAndPublish);
    return Object.fromEntries(Object.entries(types).map(([uid, type]) => [uid, { ...type, trigger: effectiveTrigger(type.trigger, hasDraftAndPublish(uid)) }]));
  }

  /** `publicNarration` is a switch of the config file (the settings page does not offer it): keep it. */
  function withFileSwitches(types: Record<string, ContentTypeNarrationConfig>): Record<string, ContentTypeNarrationConfig> {
    return Object.fromEntries(
      Object.entries(types).map(([uid, type]) => [uid, { publicNarration: config.contentTypes[uid]?.publicNarration, ...type }])
    );
  }

  async function readRuntime(): Promise<RuntimeSettings> {
    const raw = await store().get({ key: 'settings' });
    const parsed = runtimeSettingsSchema.safeParse(raw ?? {});
    return parsed.success ? parsed.data : {};
  }

  return {
    async get(): Promise<EffectiveSettings> {
      if (cached && Date.now() - cached.at < CACHE_MS) return cached.value;
      const value = merge(await readRuntime());
      cached = { value, at: Date.now() };
      return value;
    },

    async update(changes: RuntimeSettings): Promise<EffectiveSettings> {
      const next = { ...(await readRuntime()), ...runtimeSettingsSchema.parse(changes) };
      await store().set({ key: 'settings', value: next });
      cached = null;
      return this.get();
    },

    /** Per-article voice chosen by an editor; null means the default voice. */
    voiceOverride: (articleId: string) => voiceOverrides.get(articleId),
    setVoiceOverride: (target: VoiceOverrideTarget, voiceId: string | null) => voiceOverrides.set(target, voiceId),
    voiceOverrides,

    async queueState(): Promise<QueueState> {
      const raw = (await store().get({ key: 'queue' })) as Partial<QueueState> | null;
      return { ...EMPTY_QUEUE_STATE, ...(raw ?? {}) };
    },

    async updateQueueState(changes: Partial<QueueState>): Promise<QueueState> {
      const next = { ...(await this.queueState()), ...changes };
      await store().set({ key: 'queue', value: next });
      return next;
    },
  };
}

export type SettingsService = ReturnType<typeof createSettingsService>;
