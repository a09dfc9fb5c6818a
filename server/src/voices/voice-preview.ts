/**
 * Voice previews, cached per voice and text so playing twice costs credits once. One request at a
 * time from this instance (spec 7.3, 7.5); a 409 from another instance is retried briefly.
 */
import type { PreviewAccount } from '../credits';
import { LRUCache } from 'lru-cache';
import { ConcurrentRequestError, type GeneratedSpeech, type SpeechClient, type Voice } from '../speech-client';
import { sampleFor } from './samples';

const CACHE_MAX_ENTRIES = 64;
const CACHE_MAX_BYTES = 16 * 1024 * 1024;
const CACHE_MAX_ENTRY_BYTES = 4 * 1024 * 1024;
const CONCURRENT_RETRIES_MS = [750, 1500];

export interface PreviewResult {
  audio: Buffer;
  contentType: string;
  text: string;
  language: string | null;
  cached: boolean;
  creditsRemaining?: number;
  creditsUsed?: number;
}

export interface CacheEntry {
  audio: Buffer;
  contentType: string;
}

/** No expiry: a voice's sample does not change. */
export function createAudioCache(maxEntries = CACHE_MAX_ENTRIES, maxBytes = CACHE_MAX_BYTES) {
  return new LRUCache<string, CacheEntry>({
    max: maxEntries,
    maxSize: maxBytes,
    maxEntrySize: Math.min(CACHE_MAX_ENTRY_BYTES, maxBytes),
    // lru-cache counts sizes from 1.
    sizeCalculation: (entry) => Math.max(1, entry.audio.length),
  });
}

export interface PreviewDeps {
  client: () => SpeechClient;
  /** May fail: the voice's id prefix then decides the language. */
  voices: () => Promise<Voice[]>;
  sleep?: (ms: number) => Promise<void>;
}

export function createVoicePreview(deps: PreviewDeps) {
  const cache = createAudioCache();
  const sleep = deps.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  let queue: Promise<unknown> = Promise.resolve();

  function serialised<T>(task: () => Promise<T>): Promise<T> {
    const run = queue.then(task, task);
    queue = run.catch(() => undefined);
    return run;
  }

  async function generate(text: string, voiceId: string): Promise<GeneratedSpeech> {
    for (let attempt = 0; ; attempt += 1) {
      try {
        return await deps.client().generateSpeech({ text, voiceId });
      } catch (error) {
        if (!(error instanceof ConcurrentRequestError) || attempt >= CONCURRENT_RETRIES_MS.length) throw error;
        await sleep(CONCURRENT_RETRIES_MS[attempt]);
      }
    }
  }

  async function languageOf(voiceId: string): Promise<string | undefined> {
    try {
      return (await deps.voices()).find((voice) => voice.id === voiceId)?.language;
    } catch {
      return undefined;
    }
  }

  return {
    cache,
    async preview(input: { voiceId: string; text?: string }, account?: PreviewAccount): Promise<PreviewResult> {
      let text = input.text?.trim();
      let language: string | null = null;
      if (!text) {
        const sample = sampleFor({ id: input.voiceId, language: await languageOf(input.voiceId) });
        text = sample.text;
        language = sample.language;
      }
      const key = `${input.voiceId}\u0000${text}`;
      const hit = cache.get(key);
      if (hit) return { ...hit, text, language, cached: true };
      const speech = await serialised(async () => {
        // A click queued behind an identical one is served from what that one fetched.
        const fetched = cache.get(key);
        if (fetched) return { ...fetched, fromCache: true as const };
        // Code points, as the service counts characters.
        const characters = [...(text as string)].length;
        await account?.beforeGenerating(characters);
        const generated = await generate(text as string, input.voiceId);
        await account?.generated({ characters, creditsUsed: generated.creditsUsed, creditsRemaining: generated.creditsRemaining });
        return { ...generated, fromCache: false as const };
      });
      if (!speech.fromCache) cache.set(key, { audio: speech.audio, contentType: speech.contentType });
      const result: PreviewResult = { audio: speech.audio, contentType: speech.contentType, text, language, cached: speech.fromCache };
      if ('creditsRemaining' in speech && speech.creditsRemaining !== undefined) result.creditsRemaining = speech.creditsRemaining;
      if ('creditsUsed' in speech && speech.creditsUsed !== undefined) result.creditsUsed = speech.creditsUsed;
      return result;
    },
  };
}
