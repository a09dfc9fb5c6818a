import { checkVoiceLanguage, forLocale as localeVoiceFor, localeFallbacks, primaryLanguage } from '../../server/src/voices/language';
import { resolveVoiceId } from '../../server/src/voices/resolve';
import { parsePluginConfig } from '../../server/src/config/schema';
import { runtimeSettingsSchema } from '../../server/src/config/settings';

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
