import type { Core } from '@strapi/strapi';
import { contentTypeSchema, hasDraftAndPublishSchema } from '../utils/content-type-lookup';
import { z } from 'zod/v3';
import {
  budgetChangesSchema,
  localeVoicesSchema,
  parsePluginConfig,
  segmentCharacters,
  siteName,
  templatesSchema,
  type PluginConfig,
} from './config-schema';
import type { QueueState } from '../../../shared/contracts/common';
import type { SpeechSettings } from '../../../shared/contracts/settings';
import { lexiconSchema } from './lexicon-schema';
import { runtimeContentTypeSchema, typesOverFile, type RuntimeContentTypeNarration } from './runtime-types';
import { effectiveTrigger } from '../narration/domain/triggers';
import { narrationModeOf } from '../narration/domain/segments';

/**
 * The plugin's settings: its configuration file (`config/plugins.ts`, validated once), and what an
 * editor may change at run time (default voice, voices per locale, preprocessType, per-type narration
 * and its mode, the part size of segmented narrations, the pronunciation lexicon), which lives in
 * the plugin store and overrides the file. The publish path reads them on every document action,
 * so they are cached in memory for a few seconds. The queue-wide state (paused, credits) is kept
 * in the same store.
 */

export const runtimeSettingsSchema = z
  .object({
    defaultVoiceId: z.string().min(1).max(200),
    /** Replaces the file's whole map (an editor removes a locale's voice by leaving it out). */
    localeVoices: localeVoicesSchema,
    preprocessType: z.enum(['0', '2']),
    /** Replaces the saved map; a type's `segmentCharacters: null` clears its own size (runtime-types.ts). */
    contentTypes: z.record(z.string(), runtimeContentTypeSchema),
    /** Pronunciation rules; changing them re-narrates nothing until an article is narrated again. */
    lexicon: lexiconSchema,
    siteName,
    /** Each replaces the file's whole map. */
    introTemplates: templatesSchema,
    outroTemplates: templatesSchema,
    /** The longest part of a segmented narration, for every type without its own. */
    segmentCharacters,
    /** Changed key by key: the keys given replace the saved ones (or the file's). */
    budget: budgetChangesSchema,
  })
  .partial()
  .strict();
export type RuntimeSettings = z.infer<typeof runtimeSettingsSchema>;

/** The settings in effect (the configuration file, overridden by what was saved from the admin): what the admin is shown. */
export type EffectiveSettings = SpeechSettings;

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

/** The site's public origin (`server.url`), never a request's Host header. */
function publicUrl(strapi: Core.Strapi): string {
  const configured =
    (strapi.config.get('server.absoluteUrl') as string | undefined) || (strapi.config.get('server.url') as string | undefined);
  return (configured || `http://localhost:${strapi.config.get('server.port')}`).replace(/\/+$/, '');
}

export function createSettingsService({ strapi }: { strapi: Core.Strapi }) {
  const config: PluginConfig = parsePluginConfig(strapi.config.get('plugin::speech'));
  const store = () => strapi.store({ type: 'plugin', name: 'speech' });
  let cached: { value: EffectiveSettings; at: number } | null = null;
  const callbackUrl = () => config.callbackUrl || `${publicUrl(strapi)}/api/speech/callback`;

  function merge(runtime: RuntimeSettings): EffectiveSettings {
    return {
      defaultVoiceId: runtime.defaultVoiceId ?? config.defaultVoiceId,
      localeVoices: runtime.localeVoices ?? config.localeVoices,
      preprocessType: runtime.preprocessType ?? config.preprocessType,
      contentTypes: inEffect(typesOverFile(config.contentTypes, runtime.contentTypes ?? {})),
      lexicon: runtime.lexicon ?? [],
      siteName: runtime.siteName ?? config.siteName,
      introTemplates: runtime.introTemplates ?? config.introTemplates,
      outroTemplates: runtime.outroTemplates ?? config.outroTemplates,
      segmentCharacters: runtime.segmentCharacters ?? config.segmentCharacters,
      budget: {
        // A saved null is "no limit", over the file's.
        monthlyCredits: runtime.budget?.monthlyCredits !== undefined ? runtime.budget.monthlyCredits : config.budget.monthlyCredits,
        timeZone: runtime.budget?.timeZone ?? config.budget.timeZone,
        contentTypes: runtime.budget?.contentTypes ?? config.budget.contentTypes,
      },
    };
  }

  /**
   * Every narrated type with what applies to it: the trigger (off, or its type's own) and the
   * narration mode (whole unless segmented). A type's segmentCharacters stays left out when it
   * has none (null when it was cleared from the admin): the global one applies, and the admin
   * sending the type back does not pin it.
   */
  function inEffect(types: Record<string, RuntimeContentTypeNarration>): Record<string, RuntimeContentTypeNarration> {
    const hasDraftAndPublish = (uid: string) => hasDraftAndPublishSchema(contentTypeSchema(strapi, uid));
    return Object.fromEntries(
      Object.entries(types).map(([uid, type]) => [
        uid,
        { ...type, trigger: effectiveTrigger(type.trigger, hasDraftAndPublish(uid)), narrationMode: narrationModeOf(type) },
      ])
    );
  }

  async function readRuntime(): Promise<RuntimeSettings> {
    const raw = await store().get({ key: 'settings' });
    const parsed = runtimeSettingsSchema.safeParse(raw ?? {});
    return parsed.success ? parsed.data : {};
  }

  async function readFresh(): Promise<EffectiveSettings> {
    const value = merge(await readRuntime());
    cached = { value, at: Date.now() };
    return value;
  }

  return {
    /** The validated configuration file. */
    config,

    /** The site's public origin, for the URLs front ends are given. */
    publicUrl: () => publicUrl(strapi),

    /** Where the speech service posts narration results. */
    callbackUrl,

    /** How this server reaches the speech service, as the admin shows it: never the API key itself. */
    connection() {
      return {
        apiKeyConfigured: Boolean(config.apiKey),
        baseUrl: config.baseUrl,
        webUrl: config.webUrl,
        callbackUrl: callbackUrl(),
        voiceSource: config.voiceSource,
      };
    },

    async get(): Promise<EffectiveSettings> {
      if (cached && Date.now() - cached.at < CACHE_MS) return cached.value;
      return readFresh();
    },

    /**
     * The settings as stored now, past the cache: for a decision another instance's save must reach
     * at once (the budget: an instance still holding the old limit would hold again what the save
     * released, or send what it held).
     */
    fresh: readFresh,

    async update(changes: RuntimeSettings): Promise<EffectiveSettings> {
      const saved = await readRuntime();
      const parsed = runtimeSettingsSchema.parse(changes);
      const next = { ...saved, ...parsed, ...(parsed.budget ? { budget: { ...saved.budget, ...parsed.budget } } : {}) };
      await store().set({ key: 'settings', value: next });
      // What was just written: no second read of the store.
      cached = { value: merge(next), at: Date.now() };
      return cached.value;
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
