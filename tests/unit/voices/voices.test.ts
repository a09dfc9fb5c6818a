import { checkVoiceLanguage, forLocale as localeVoiceFor, localeFallbacks, primaryLanguage } from '../../../server/src/voices/language';
import { resolveVoiceId } from '../../../server/src/voices/resolve';
import { siteVoices } from '../../../server/src/settings/site-voices';
import { ensureVoicesListed } from '../../../server/src/voices/listed';
import { createVoicesService } from '../../../server/src/voices/service';
import { parsePluginConfig } from '../../../server/src/config/schema';
import { runtimeSettingsSchema } from '../../../server/src/config/settings';

const localeVoices = { ar: 'ar-female-1', en: 'en-male-1', 'pt-BR': 'pt-br-1' };

describe('the voice an article is read in', () => {
  it('is its own override, else its locale default, else the global default', () => {
    expect(resolveVoiceId({ override: 'ar-male-2', locale: 'ar', localeVoices, defaultVoiceId: 'en-female-1' })).toBe('ar-male-2');
    expect(resolveVoiceId({ override: null, locale: 'ar', localeVoices, defaultVoiceId: 'en-female-1' })).toBe('ar-female-1');
    expect(resolveVoiceId({ locale: 'fr', localeVoices, defaultVoiceId: 'en-female-1' })).toBe('en-female-1');
    expect(resolveVoiceId({ locale: null, localeVoices, defaultVoiceId: 'en-female-1' })).toBe('en-female-1');
    expect(resolveVoiceId({ locale: 'ar', defaultVoiceId: 'en-female-1' })).toBe('en-female-1');
    // An empty override (cleared) is no override.
    expect(resolveVoiceId({ override: '', locale: 'ar', localeVoices, defaultVoiceId: 'en-female-1' })).toBe('ar-female-1');
  });

  it('finds a regional locale by its own code first, then by its language; codes in any case', () => {
    expect(localeVoiceFor(localeVoices, 'ar-JO')).toBe('ar-female-1');
    expect(localeVoiceFor(localeVoices, 'pt-br')).toBe('pt-br-1');
    expect(localeVoiceFor(localeVoices, 'pt-PT')).toBeNull();
    expect(localeVoiceFor({ 'ar-JO': 'ar-male-1', ar: 'ar-female-1' }, 'ar-JO')).toBe('ar-male-1');
    expect(localeVoiceFor({ 'ar-JO': 'ar-male-1' }, 'ar')).toBeNull();
    expect(localeVoiceFor(undefined, 'ar')).toBeNull();
  });

  it('looks a locale up under its own code, then its language (one chain for voices, templates and the lexicon)', () => {
    expect(localeFallbacks('ar-JO')).toEqual(['ar-jo', 'ar']);
    expect(localeFallbacks('AR')).toEqual(['ar']);
    expect(localeFallbacks('x-klingon')).toEqual(['x-klingon']);
    expect(localeFallbacks(null)).toEqual([]);
  });
});

describe('a voice of the wrong language', () => {
  it('compares primary language subtags', () => {
    expect(checkVoiceLanguage('en-female-1', 'en', 'ar')).toEqual({ id: 'en-female-1', language: 'en', mismatch: true });
    expect(checkVoiceLanguage('ar-female-1', 'ar-JO', 'ar')).toEqual({ id: 'ar-female-1', language: 'ar-JO', mismatch: false });
    expect(checkVoiceLanguage('x', 'EN_us', 'en-GB').mismatch).toBe(false);
    expect(checkVoiceLanguage('x', 'fr', 'fr-CA').mismatch).toBe(false);
  });

  it('is no warning when either language is unknown (the voice id is not read for one)', () => {
    expect(checkVoiceLanguage('en-female-1', undefined, 'ar')).toEqual({ id: 'en-female-1', language: null, mismatch: false });
    expect(checkVoiceLanguage('en-female-1', '  ', 'ar')).toEqual({ id: 'en-female-1', language: null, mismatch: false });
    expect(checkVoiceLanguage('narrator', 'en', null).mismatch).toBe(false);
    expect(checkVoiceLanguage('narrator', 'multilingual', 'ar').mismatch).toBe(false);
  });

  it('primaryLanguage reads language tags and voice ids', () => {
    expect(primaryLanguage('ar-JO')).toBe('ar');
    expect(primaryLanguage('zh-Hans')).toBe('zh');
    expect(primaryLanguage('multilingual')).toBeNull();
  });
});

describe('localeVoices in the configuration and the runtime settings', () => {
  const minimal = { baseUrl: 'https://api.speech.example', webUrl: 'https://web.speech.example' };

  it('defaults to none and keeps locale codes with their voices', () => {
    expect(parsePluginConfig(minimal).localeVoices).toEqual({});
    expect(parsePluginConfig({ ...minimal, localeVoices: { ar: ' ar-female-1 ', 'fr-FR': 'fr-1' } }).localeVoices).toEqual({
      ar: 'ar-female-1',
      'fr-FR': 'fr-1',
    });
  });

  it('refuses a voice that is empty and a key that is no locale code, naming the key', () => {
    expect(() => parsePluginConfig({ ...minimal, localeVoices: { ar: '' } })).toThrow(
      /speech\.config\.localeVoices\.ar: must name a voice/
    );
    expect(() => parsePluginConfig({ ...minimal, localeVoices: { 'not a locale': 'x' } })).toThrow(
      /speech\.config\.localeVoices\.not a locale: must be a locale code/
    );
    expect(() => parsePluginConfig({ ...minimal, localeVoices: { ar: 3 } })).toThrow(/speech\.config\.localeVoices\.ar/);
  });

  it('the settings route validates it the same way', () => {
    expect(runtimeSettingsSchema.safeParse({ localeVoices: { ar: 'ar-female-1' } }).success).toBe(true);
    const refused = runtimeSettingsSchema.safeParse({ localeVoices: { ar: ' ' } });
    expect(refused.success).toBe(false);
    expect(refused.error?.issues[0]).toMatchObject({ path: ['localeVoices', 'ar'], message: 'must name a voice' });
  });
});

describe('a voice an editor asks for', () => {
  const listed = [
    { id: 'en-female-1', name: 'Emma', language: 'en' },
    { id: 'ar-male-1', name: 'Omar', language: 'ar' },
  ];
  const serviceWith = (lists: Array<typeof listed | Error>) => {
    const client = {
      listVoices: jest.fn(async () => {
        const next = lists.shift() ?? listed;
        if (next instanceof Error) throw next;
        return next;
      }),
    };
    return { voices: createVoicesService({ config: { voiceSource: 'service', voices: [] }, client: client as never }), client };
  };

  it('is refused with a 400 naming each voice not in the list, and where it was asked', async () => {
    const { voices } = serviceWith([listed, listed]);
    await expect(ensureVoicesListed(voices, [{ path: ['voiceId'], voiceId: 'en-female-1' }])).resolves.toBeUndefined();
    const refusal = ensureVoicesListed(voices, [
      { path: ['localeVoices', 'ar'], voiceId: 'ar-male-1' },
      { path: ['quoteVoices', 'en'], voiceId: 'nobody-9' },
    ]);
    await expect(refusal).rejects.toMatchObject({
      name: 'ValidationError',
      message: 'quoteVoices.en: "nobody-9" is not in the voice list.',
      details: { errors: [{ path: ['quoteVoices', 'en'], message: '"nobody-9" is not in the voice list' }] },
    });
  });

  it('is looked for again in a fresh list before it is refused (a voice the service added since)', async () => {
    const { voices, client } = serviceWith([listed, [...listed, { id: 'en-male-2', name: 'Noah', language: 'en' }]]);
    await expect(voices.notInList(['en-male-2'])).resolves.toEqual([]);
    expect(client.listVoices).toHaveBeenCalledTimes(2);
    // A kept list that has it asks nothing more.
    await expect(voices.notInList(['en-female-1'])).resolves.toEqual([]);
    expect(client.listVoices).toHaveBeenCalledTimes(2);
  });

  it('answers 503 when the list cannot be had, and checks a configured list without the service', async () => {
    const { voices } = serviceWith([new Error('connect ECONNREFUSED')]);
    await expect(ensureVoicesListed(voices, [{ path: ['voiceId'], voiceId: 'en-female-1' }])).rejects.toMatchObject({
      status: 503,
      message: expect.stringContaining('"en-female-1"'),
    });
    const configured = createVoicesService({ config: { voiceSource: 'config', voices: listed }, client: {} as never });
    await expect(configured.notInList(['ar-male-1', 'zz-9'])).resolves.toEqual(['zz-9']);
  });

  it("names the site's own voices: the default, each locale's and each locale's quotes", () => {
    expect(
      [...siteVoices({ defaultVoiceId: 'en-female-1', localeVoices: { ar: 'ar-male-1' }, quoteVoices: { en: 'en-male-2' } })].sort()
    ).toEqual(['ar-male-1', 'en-female-1', 'en-male-2']);
  });
});
