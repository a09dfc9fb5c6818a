import { textDirection, uiLanguage } from '../../../player/src/locale';
import { STRINGS } from '../../../player/src/strings';

describe('player: direction and language from the narration locale', () => {
  it('right to left for Arabic, Hebrew, Persian, Urdu and the other right-to-left languages, whatever the region', () => {
    for (const locale of ['ar', 'ar-JO', 'AR_sa', 'he', 'he-IL', 'iw', 'fa-IR', 'ur', 'ps', 'sd', 'ug', 'yi', 'dv', 'ckb'])
      expect([locale, textDirection(locale)]).toEqual([locale, 'rtl']);
  });

  it('left to right for the others, a missing locale, and a right-to-left language written in another script', () => {
    for (const locale of ['en', 'en-US', 'fr', 'ru', 'zh-Hant-TW', 'tr', 'arn', 'hy', 'ku-Latn', 'ar-Latn', '', null, undefined])
      expect([locale, textDirection(locale)]).toEqual([locale, 'ltr']);
  });

  it('right to left for a right-to-left script named by the locale', () => {
    expect(['az-Arab', 'pa-Arab-PK', 'yi-Hebr', 'ff-Adlm'].map(textDirection)).toEqual(['rtl', 'rtl', 'rtl', 'rtl']);
  });

  it('Arabic words for Arabic locales, English otherwise', () => {
    expect(['ar', 'ar-JO', 'ar_EG', 'en', 'fr', 'he', null].map(uiLanguage)).toEqual(['ar', 'ar', 'ar', 'en', 'en', 'en', 'en']);
  });

  it('both languages have every message, none left empty or in English in the Arabic set', () => {
    expect(Object.keys(STRINGS.ar).sort()).toEqual(Object.keys(STRINGS.en).sort());
    for (const [key, text] of Object.entries(STRINGS.ar)) {
      expect([key, text.trim().length > 0]).toEqual([key, true]);
      expect([key, /\p{Script=Arabic}/u.test(text)]).toEqual([key, true]);
    }
  });
});
