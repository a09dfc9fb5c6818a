/** A narration's locale (`ar`, `ar-JO`, `he_IL`, `az-Arab`) decides the player's direction and language. Pure. */

/** Languages written right to left (ISO 639 codes, `iw` and `ji` being Hebrew's and Yiddish's old ones). */
const RTL_LANGUAGES = new Set(['ar', 'arc', 'ckb', 'dv', 'fa', 'he', 'iw', 'ji', 'ks', 'ps', 'sd', 'syr', 'ug', 'ur', 'yi']);
/** Scripts written right to left, for a locale that names its script (`az-Arab`, `pa-Arab`). */
const RTL_SCRIPTS = new Set(['adlm', 'arab', 'hebr', 'mand', 'nkoo', 'rohg', 'samr', 'syrc', 'thaa']);

function subtags(locale: string | null | undefined): string[] {
  return (locale ?? '').trim().toLowerCase().split(/[-_]/);
}

/** Right to left for a right-to-left language, unless the locale names another script (`ku-Latn`); or for a right-to-left script. */
export function textDirection(locale: string | null | undefined): 'rtl' | 'ltr' {
  const [language, ...rest] = subtags(locale);
  const script = rest.find((part) => /^[a-z]{4}$/.test(part));
  return (script ? RTL_SCRIPTS.has(script) : RTL_LANGUAGES.has(language)) ? 'rtl' : 'ltr';
}

/** The language of the player's own words: Arabic for an Arabic locale, English otherwise. */
export function uiLanguage(locale: string | null | undefined): 'ar' | 'en' {
  return subtags(locale)[0] === 'ar' ? 'ar' : 'en';
}
