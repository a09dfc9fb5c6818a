/**
 * Voice previews (and "listen to this text"): `POST /api/v1/tts/generate` with a short sample in the
 * voice's language. Answers are cached per voice and text in memory (bounded by entries and bytes),
 * so clicking play twice costs credits once. Requests from this instance go to the service one at a
 * time (spec 7.3 allows one request per account at a time; 7.5: queue on the client), and a 409
 * CONCURRENT_REQUEST caused by another instance is retried briefly.
 */
import { ConcurrentRequestError, type GeneratedSpeech, type SpeechClient, type Voice } from '../speech-client';

/** One or two sentences per language: short (few credits), with a full stop between sentences. */
export const SAMPLE_TEXTS: Record<string, string> = {
  ar: 'مرحبا، هذا مثال على صوتي. أتمنى أن يعجبك.',
  en: 'Hello, this is a sample of my voice. I hope you like it.',
  fr: 'Bonjour, voici un exemple de ma voix. J’espère qu’elle vous plaît.',
  es: 'Hola, esta es una muestra de mi voz. Espero que te guste.',
  de: 'Hallo, das ist eine Hörprobe meiner Stimme. Ich hoffe, sie gefällt Ihnen.',
  it: 'Ciao, questo è un esempio della mia voce. Spero che ti piaccia.',
  pt: 'Olá, esta é uma amostra da minha voz. Espero que goste.',
  tr: 'Merhaba, bu sesimden bir örnek. Umarım beğenirsiniz.',
  ur: 'السلام علیکم، یہ میری آواز کا نمونہ ہے۔ امید ہے آپ کو پسند آئے گا۔',
  fa: 'سلام، این نمونه‌ای از صدای من است. امیدوارم خوشتان بیاید.',
  hi: 'नमस्ते, यह मेरी आवाज़ का एक नमूना है। आशा है आपको पसंद आएगा।',
  ru: 'Здравствуйте, это образец моего голоса. Надеюсь, он вам понравится.',
};
export const FALLBACK_LANGUAGE = 'en';

/** Longest text a preview may send; longer texts are refused locally, before any credit is spent. */
export const MAX_PREVIEW_TEXT_LENGTH = 10_000;

const CACHE_MAX_ENTRIES = 64;
const CACHE_MAX_BYTES = 16 * 1024 * 1024;
const CACHE_MAX_ENTRY_BYTES = 4 * 1024 * 1024;
const CONCURRENT_RETRIES_MS = [750, 1500];

/** `ar-JO`, `ar_male`, `ar-female-1` -> `ar`. */
export function primaryLanguage(tag: string | undefined | null): string | null {
  const match = typeof tag === 'string' ? /^([A-Za-z]{2,3})(?:$|[-_])/.exec(tag.trim()) : null;
  return match ? match[1].toLowerCase() : null;
}

/** The sample for a voice: by its language, else by the language its id starts with, else English. */
export function sampleFor(voice: Pick<Voice, 'id' | 'language'> | { id: string; language?: string }): { language: string; text: string } {
  for (const candidate of [primaryLanguage(voice.language), primaryLanguage(voice.id)]) {
    if (candidate && SAMPLE_TEXTS[candidate]) return { language: candidate, text: SAMPLE_TEXTS[candidate] };
  }
  return { language: FALLBACK_LANGUAGE, text: SAMPLE_TEXTS[FALLBACK_LANGUAGE] };
}

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

/** A small LRU by insertion order of a Map. */
export function createAudioCache(maxEntries = CACHE_MAX_ENTRIES, maxBytes = CACHE_MAX_BYTES) {
  const entries = new Map<string, CacheEntry>();
  let bytes = 0;
  return {
    get(key: string): CacheEntry | undefined {
      const entry = entries.get(key);
      if (entry) {
        entries.delete(key);
        entries.set(key, entry);
      }
      return entry;
    },
    set(key: string, entry: CacheEntry) {
      if (entry.audio.length > Math.min(CACHE_MAX_ENTRY_BYTES, maxBytes)) return;
      const previous = entries.get(key);
      if (previous) {
        bytes -= previous.audio.length;
        entries.delete(key);
      }
      entries.set(key, entry);
      bytes += entry.audio.length;
      for (const [oldest, value] of entries) {
        if (entries.size <= maxEntries && bytes <= maxBytes) break;
        entries.delete(oldest);
        bytes -= value.audio.length;
      }
    },
    get size() {
      return entries.size;
    },
    get bytes() {
      return bytes;
    },
    clear() {
      entries.clear();
      bytes = 0;
    },
  };
}

export interface PreviewDeps {
  client: () => SpeechClient;
  /** The voice list (may fail: the voice's id prefix then decides the language). */
  voices: () => Promise<Voice[]>;
  sleep?: (ms: number) => Promise<void>;
}

export function createVoicePreview(deps: PreviewDeps) {
  const cache = createAudioCache();
  const sleep = deps.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  let queue: Promise<unknown> = Promise.resolve();

  /** One generation at a time from this instance. */
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
    async preview(input: { voiceId: string; text?: string }): Promise<PreviewResult> {
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
        return { ...(await generate(text as string, input.voiceId)), fromCache: false as const };
      });
      if (!speech.fromCache) cache.set(key, { audio: speech.audio, contentType: speech.contentType });
      const result: PreviewResult = { audio: speech.audio, contentType: speech.contentType, text, language, cached: speech.fromCache };
      if ('creditsRemaining' in speech && speech.creditsRemaining !== undefined) result.creditsRemaining = speech.creditsRemaining;
      if ('creditsUsed' in speech && speech.creditsUsed !== undefined) result.creditsUsed = speech.creditsUsed;
      return result;
    },
  };
}

export type VoicePreview = ReturnType<typeof createVoicePreview>;
