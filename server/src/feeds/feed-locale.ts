/**
 * Which feed a `?locale=` names. Pure.
 *
 * A localized type has a feed per locale of the site (built and cached apart) and one of every
 * locale (no `locale`); a type without locales has the one feed. Any other locale names no feed:
 * refused before anything is built or cached, else each new code would build a feed and push the
 * real ones out of the cache.
 *
 * Codes are matched regardless of case (BCP 47 tags are case-insensitive, RFC 5646 2.1.1, and no
 * two of i18n's codes differ only in case) and the feed is the one of the site's spelling: `AR`
 * is the `ar` feed, not a second one. i18n itself compares codes as the database does: exactly
 * on SQLite and PostgreSQL, regardless of case on MySQL.
 */

export type FeedLocale = { kind: 'feed'; locale: string | null } | { kind: 'no-such-feed'; reason: string };

export function feedLocale(asked: string | null, type: { localized: boolean; siteLocales: readonly string[] }): FeedLocale {
  if (asked === null) return { kind: 'feed', locale: null };
  if (!type.localized) return { kind: 'no-such-feed', reason: 'This content type has no locales: its feed takes no locale.' };
  const locale = type.siteLocales.find((code) => code.toLowerCase() === asked.toLowerCase());
  return locale ? { kind: 'feed', locale } : { kind: 'no-such-feed', reason: `This site has no locale "${asked}".` };
}
