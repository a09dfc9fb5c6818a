import { feedLocale } from '../../../server/src/feeds/feed-locale';

/** Which feed a `?locale=` names (feeds/feed-locale.ts): the site's locales of a localized type, in the site's spelling; nothing else. */

const localized = { localized: true, siteLocales: ['en', 'ar', 'fr-FR', 'zh-Hans'] };

describe('the locale of a feed', () => {
  it('no locale: the feed of every locale, for any type', () => {
    expect(feedLocale(null, localized)).toEqual({ kind: 'feed', locale: null });
    expect(feedLocale(null, { localized: false, siteLocales: [] })).toEqual({ kind: 'feed', locale: null });
  });

  it("a locale of the site, in any case, is that locale's feed in the site's spelling", () => {
    expect(feedLocale('ar', localized)).toEqual({ kind: 'feed', locale: 'ar' });
    expect(feedLocale('AR', localized)).toEqual({ kind: 'feed', locale: 'ar' });
    expect(feedLocale('fr-fr', localized)).toEqual({ kind: 'feed', locale: 'fr-FR' });
    expect(feedLocale('ZH-HANS', localized)).toEqual({ kind: 'feed', locale: 'zh-Hans' });
  });

  it('a locale the site does not have names no feed', () => {
    expect(feedLocale('xx', localized)).toEqual({ kind: 'no-such-feed', reason: 'This site has no locale "xx".' });
    expect(feedLocale('fr', localized).kind).toBe('no-such-feed');
  });

  it('a type without locales takes none, even one the site has', () => {
    const result = feedLocale('en', { localized: false, siteLocales: localized.siteLocales });
    expect(result).toEqual({ kind: 'no-such-feed', reason: 'This content type has no locales: its feed takes no locale.' });
  });
});
