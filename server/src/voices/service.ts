import type { SpeechClient, Voice } from '../speech-client';
import { checkVoiceLanguage, type VoiceCheck } from './language';
import { resolveVoiceId } from './resolve';
import type { VoicesConfig } from './config';

const VOICES_CACHE_MS = 10 * 60_000;
/** After a failure, languages are answered as unknown this long without asking again. */
const FAILURE_QUIET_MS = 30_000;
/** A language check never holds up an estimate longer than this. */
const LANGUAGE_WAIT_MS = 3_000;

const checkAgainst = (voices: Voice[], voiceId: string, locale: string | null) =>
  checkVoiceLanguage(voiceId, voices.find((voice) => voice.id === voiceId)?.language, locale);

export function createVoicesService({ config, client }: { config: Pick<VoicesConfig, 'voiceSource' | 'voices'>; client: SpeechClient }) {
  let cached: { voices: Voice[]; at: number } | null = null;
  let fetching: Promise<Voice[]> | null = null;
  let failedAt = 0;

  async function list({ fresh = false }: { fresh?: boolean } = {}): Promise<Voice[]> {
    if (config.voiceSource === 'config') return config.voices;
    if (!fresh && cached && Date.now() - cached.at < VOICES_CACHE_MS) return cached.voices;
    fetching ??= client.listVoices().finally(() => {
      fetching = null;
    });
    try {
      const voices = await fetching;
      cached = { voices, at: Date.now() };
      return voices;
    } catch (error) {
      failedAt = Date.now();
      throw error;
    }
  }

  /** Warnings must not slow an estimate down nor fail it: the last list when the service is down or slow. */
  async function listForChecks(): Promise<Voice[]> {
    const fallback = () => cached?.voices ?? [];
    if (config.voiceSource !== 'config' && Date.now() - failedAt < FAILURE_QUIET_MS) return fallback();
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<Voice[]>((resolve) => {
      timer = setTimeout(() => resolve(fallback()), LANGUAGE_WAIT_MS);
      timer.unref?.();
    });
    try {
      return await Promise.race([list().catch(fallback), late]);
    } finally {
      clearTimeout(timer);
    }
  }

  /** A voice missing from the kept list is looked for in a fresh one. */
  async function notInList(voiceIds: readonly string[]): Promise<string[]> {
    const wanted = [...new Set(voiceIds)];
    if (wanted.length === 0) return [];
    const idsOf = (voices: Voice[]) => new Set(voices.map((voice) => voice.id));
    let known = idsOf(await list());
    if (config.voiceSource !== 'config' && wanted.some((id) => !known.has(id))) known = idsOf(await list({ fresh: true }));
    return wanted.filter((id) => !known.has(id));
  }

  return {
    /** `fresh`: for the settings page's connection test. */
    list,
    notInList,

    async check(voiceId: string, locale: string | null): Promise<VoiceCheck> {
      return checkAgainst(await listForChecks(), voiceId, locale);
    },

    async checkLocales(
      locales: string[],
      settings: { localeVoices: Record<string, string>; defaultVoiceId: string }
    ): Promise<Record<string, VoiceCheck | null>> {
      const voices = await listForChecks();
      return Object.fromEntries(
        locales.map((locale) => {
          const voiceId = resolveVoiceId({ locale, localeVoices: settings.localeVoices, defaultVoiceId: settings.defaultVoiceId });
          return [locale, voiceId ? checkAgainst(voices, voiceId, locale) : null];
        })
      );
    },
  };
}

export type VoicesService = ReturnType<typeof createVoicesService>;
