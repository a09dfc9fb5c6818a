import type { Core } from '@strapi/strapi';
import { z } from 'zod';
import { contentTypeNarrationSchema, type ContentTypeNarrationConfig, type PluginConfig } from '../config/schema';
import type { PreprocessType } from '../narration/cost';

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
  let cached: { value: EffectiveSettings; at: number } | null = null;

  function merge(runtime: RuntimeSettings): EffectiveSettings {
    return {
      defaultVoiceId: runtime.defaultVoiceId ?? config.defaultVoiceId,
      preprocessType: runtime.preprocessType ?? config.preprocessType,
      contentTypes: { ...config.contentTypes, ...(runtime.contentTypes ?? {}) },
    };
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

    /** Per-article voice chosen by an editor, keyed by articleId; absent means the default voice. */
    async voiceOverride(articleId: string): Promise<string | null> {
      const overrides = ((await store().get({ key: 'voiceOverrides' })) ?? {}) as Record<string, string>;
      return overrides[articleId] ?? null;
    },

    async setVoiceOverride(articleId: string, voiceId: string | null): Promise<void> {
      const overrides = { ...(((await store().get({ key: 'voiceOverrides' })) ?? {}) as Record<string, string>) };
      if (voiceId) overrides[articleId] = voiceId;
      else delete overrides[articleId];
      await store().set({ key: 'voiceOverrides', value: overrides });
    },

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
