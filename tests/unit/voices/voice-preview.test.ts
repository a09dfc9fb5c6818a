import { ConcurrentRequestError, InsufficientCreditsError, type SpeechClient } from '../../../server/src/speech-client';
import { createAudioCache, createVoicePreview } from '../../../server/src/voices/voice-preview';
import { sampleFor, SAMPLE_TEXTS } from '../../../server/src/voices/samples';
import { primaryLanguage } from '../../../server/src/voices/language';

describe('samples', () => {
  it('picks the sample by the voice language, else its id, else English', () => {
    expect(sampleFor({ id: 'v1', language: 'ar-JO' })).toEqual({ language: 'ar', text: SAMPLE_TEXTS.ar });
    expect(sampleFor({ id: 'fr-female-2' })).toEqual({ language: 'fr', text: SAMPLE_TEXTS.fr });
    expect(sampleFor({ id: 'narrator', language: 'xx' })).toEqual({ language: 'en', text: SAMPLE_TEXTS.en });
  });

  it('reads primary language subtags', () => {
    expect(primaryLanguage('ar-JO')).toBe('ar');
    expect(primaryLanguage('EN_us')).toBe('en');
    expect(primaryLanguage('narrator')).toBeNull();
    expect(primaryLanguage(undefined)).toBeNull();
  });
});

describe('audio cache', () => {
  const audio = (bytes: number) => ({ audio: Buffer.alloc(bytes), contentType: 'audio/mpeg' });

  it('evicts the least recently used entries beyond its entry and byte bounds', () => {
    const cache = createAudioCache(2, 1000);
    cache.set('a', audio(100));
    cache.set('b', audio(100));
    cache.get('a');
    cache.set('c', audio(100));
    expect(cache.get('b')).toBeUndefined();
    expect(cache.get('a')).toBeDefined();
    cache.set('d', audio(900));
    expect(cache.calculatedSize).toBe(1000);
    expect(cache.size).toBe(2);
    expect(cache.get('c')).toBeUndefined();
    cache.set('huge', audio(5000));
    expect(cache.get('huge')).toBeUndefined();
  });

  it('keeps by default 64 answers, 16 MB of audio, none over 4 MB, and an empty answer too', () => {
    const cache = createAudioCache();
    const MB = 1024 * 1024;
    cache.set('too large', audio(4 * MB + 1));
    expect(cache.has('too large')).toBe(false);
    for (let i = 0; i < 5; i += 1) cache.set(`large ${i}`, audio(4 * MB));
    expect(cache.size).toBe(4);
    expect(cache.has('large 0')).toBe(false);
    cache.clear();
    for (let i = 0; i < 65; i += 1) cache.set(`small ${i}`, audio(10));
    expect(cache.size).toBe(64);
    expect(cache.has('small 0')).toBe(false);
    cache.set('silence', audio(0));
    expect(cache.get('silence')?.audio.length).toBe(0);
  });
});

describe('createVoicePreview', () => {
  function fakeClient(behaviour: (call: number) => Promise<Buffer>) {
    let calls = 0;
    let active = 0;
    let maxActive = 0;
    const client = {
      async generateSpeech() {
        calls += 1;
        active += 1;
        maxActive = Math.max(maxActive, active);
        try {
          const audio = await behaviour(calls);
          return { audio, contentType: 'audio/mpeg', creditsRemaining: 10 };
        } finally {
          active -= 1;
        }
      },
    } as unknown as SpeechClient;
    return { client, stats: () => ({ calls, maxActive }) };
  }

  it('speaks the language sample, caches it per voice and text, one request at a time', async () => {
    const { client, stats } = fakeClient(async () => {
      await new Promise((resolve) => setTimeout(resolve, 10));
      return Buffer.from('mp3');
    });
    const preview = createVoicePreview({ client: () => client, voices: async () => [{ id: 'v-ar', name: 'Ar', language: 'ar' }] });
    const [a, b, c] = await Promise.all([
      preview.preview({ voiceId: 'v-ar' }),
      preview.preview({ voiceId: 'v-ar' }),
      preview.preview({ voiceId: 'v-ar', text: 'Other.' }),
    ]);
    expect(a).toMatchObject({ text: SAMPLE_TEXTS.ar, language: 'ar', cached: false, creditsRemaining: 10 });
    expect(b.cached).toBe(true);
    expect(c).toMatchObject({ text: 'Other.', cached: false });
    expect(stats()).toEqual({ calls: 2, maxActive: 1 });
  });

  it('falls back to the voice id when the voice list fails', async () => {
    const { client } = fakeClient(async () => Buffer.from('mp3'));
    const preview = createVoicePreview({ client: () => client, voices: async () => Promise.reject(new Error('down')) });
    expect(await preview.preview({ voiceId: 'en-male-1' })).toMatchObject({ language: 'en', text: SAMPLE_TEXTS.en });
  });

  it('retries briefly on 409 CONCURRENT_REQUEST, not on other errors', async () => {
    const { client, stats } = fakeClient(async (call) => {
      if (call === 1) throw new ConcurrentRequestError();
      return Buffer.from('mp3');
    });
    const preview = createVoicePreview({ client: () => client, voices: async () => [], sleep: async () => undefined });
    expect((await preview.preview({ voiceId: 'en-male-1', text: 'Hi.' })).audio.toString()).toBe('mp3');
    expect(stats().calls).toBe(2);

    const broke = fakeClient(async () => {
      throw new InsufficientCreditsError({ creditsRemaining: 0, creditsRequired: 3 });
    });
    const failing = createVoicePreview({ client: () => broke.client, voices: async () => [], sleep: async () => undefined });
    await expect(failing.preview({ voiceId: 'en-male-1', text: 'Hi.' })).rejects.toBeInstanceOf(InsufficientCreditsError);
    expect(broke.stats().calls).toBe(1);
    expect(failing.cache.size).toBe(0);
  });
});
