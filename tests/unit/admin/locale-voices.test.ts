import { localeVoiceCheck, primaryLanguage, voicesForLocale } from '../../../admin/src/pages/Settings/localeVoices';
import { fromForm, isDirty, toForm } from '../../../admin/src/pages/Settings/form';
import { textDirection } from '../../../admin/src/utils/textDirection';
import type { SpeechSettings, Voice } from '../../../admin/src/api/types';

const voices: Voice[] = [
  { id: 'en-female-1', name: 'Emma', language: 'en-US' },
  { id: 'en-male-1', name: 'James', language: 'en' },
  { id: 'ar-female-1', name: 'Layla', language: 'ar-JO' },
  { id: 'mystery', name: 'Mystery' },
];

describe('voices by language', () => {
  it('reads the primary language of a tag', () => {
    expect(primaryLanguage('ar-JO')).toBe('ar');
    expect(primaryLanguage('EN_us')).toBe('en');
    expect(primaryLanguage('')).toBeNull();
    expect(primaryLanguage(undefined)).toBeNull();
  });

  it("offers a locale's picker the voices of its language, keeping a chosen voice of another", () => {
    expect(voicesForLocale(voices, 'ar').map((voice) => voice.id)).toEqual(['ar-female-1']);
    expect(voicesForLocale(voices, 'en').map((voice) => voice.id)).toEqual(['en-female-1', 'en-male-1']);
    expect(voicesForLocale(voices, 'ar', 'en-male-1').map((voice) => voice.id)).toEqual(['en-male-1', 'ar-female-1']);
  });

  it('offers every voice when none is of the locale language', () => {
    expect(voicesForLocale(voices, 'fr')).toEqual(voices);
  });

  it("warns when the locale's voice, or else the default voice, speaks another language", () => {
    expect(localeVoiceCheck('ar', { ar: 'en-male-1' }, 'ar-female-1', voices, undefined)).toEqual({
      id: 'en-male-1',
      language: 'en',
      mismatch: true,
    });
    expect(localeVoiceCheck('ar', {}, 'en-female-1', voices, undefined)?.mismatch).toBe(true);
    expect(localeVoiceCheck('ar', { ar: '' }, 'en-female-1', voices, undefined)?.id).toBe('en-female-1');
    expect(localeVoiceCheck('ar-JO', { 'ar-JO': 'ar-female-1' }, 'en-female-1', voices, undefined)?.mismatch).toBe(false);
    expect(localeVoiceCheck('ar', {}, '', voices, undefined)).toBeNull();
  });

  it("never warns about a voice of unknown language; uses the server's check of the same voice when the list lacks it", () => {
    expect(localeVoiceCheck('ar', { ar: 'mystery' }, 'en-female-1', voices, undefined)?.mismatch).toBe(false);
    const saved = { ar: { id: 'gone', language: 'fr', mismatch: true } };
    expect(localeVoiceCheck('ar', { ar: 'gone' }, 'en-female-1', undefined, saved)).toEqual({ id: 'gone', language: 'fr', mismatch: true });
    expect(localeVoiceCheck('ar', { ar: 'other' }, 'en-female-1', undefined, saved)?.mismatch).toBe(false);
  });

  it('writes Arabic right to left and English left to right', () => {
    expect(textDirection('ar')).toBe('rtl');
    expect(textDirection('en')).toBe('ltr');
  });
});

describe('settings form with voices by language', () => {
  const settings: SpeechSettings = {
    defaultVoiceId: 'en-female-1',
    localeVoices: { ar: 'ar-female-1' },
    preprocessType: '0',
    contentTypes: {},
  };

  it('sends the whole map, leaving out locales without a voice of their own', () => {
    const form = toForm(settings, []);
    expect(fromForm(form).localeVoices).toEqual({ ar: 'ar-female-1' });
    const edited = { ...form, localeVoices: { ar: '', en: 'en-male-1' } };
    expect(fromForm(edited).localeVoices).toEqual({ en: 'en-male-1' });
    expect(isDirty(edited, form)).toBe(true);
  });

  it('sends no map to a server that does not offer one', () => {
    const { localeVoices: _ignored, ...older } = settings;
    expect(fromForm(toForm(older, []))).not.toHaveProperty('localeVoices');
  });
});
