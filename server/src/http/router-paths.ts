import { pathToRegexp } from 'path-to-regexp';

/** Paths as Strapi's router (@koa/router on path-to-regexp 6) matches them, for guards that run ahead of it. */

type PathMatcher = (requestPath: string) => boolean;
const matchers = new Map<string, PathMatcher>();

function matcher(path: string, end: boolean): PathMatcher {
  const key = `${end ? 'route' : 'prefix'} ${path}`;
  let match = matchers.get(key);
  if (!match) {
    const pattern = pathToRegexp(path, [], { sensitive: false, strict: false, end });
    matchers.set(key, (match = (requestPath) => pattern.test(requestPath)));
  }
  return match;
}

export const routeMatcher = (path: string): PathMatcher => matcher(path, true);

export const prefixMatcher = (root: string): PathMatcher => matcher(root, false);

/** One leading slash and no trailing one; '' for none. */
export function restPrefix(configured: unknown): string {
  const trimmed = String(configured ?? '/api').replace(/^\/+|\/+$/g, '');
  return trimmed ? `/${trimmed}` : '';
}
