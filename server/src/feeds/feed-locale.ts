/**
 * Which feed a `?locale=` names. Unknown locales are refused before building, else each new code
 * would push the real feeds out of the cache. Matched regardless of case (RFC 5646 2.1.1).
 */

export type FeedLocale = { kind: 'feed'; locale: string | null } | { kind: 'no-such-feed'; reason: string };

export function feedLocale(asked: string | null, type: { localized: boolean; siteLocales: readonly string[] }): FeedLocale {
  if (asked === null) return { kind: 'feed', locale: null };
  if (!type.localized) return { kind: 'no-such-feed', reason: 'This content type has no locales: its feed takes no locale.' };
  const locale = type.siteLocales.find((code) => code.toLowerCase() === asked.toLowerCase());
  return locale ? { kind: 'feed', locale } : { kind: 'no-such-feed', reason: `This site has no locale "${asked}".` };
}
