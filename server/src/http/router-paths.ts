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

/** Whether a request's path is the route's path (`/speech/feeds/:pluralName.xml`), as the router would route it. */
export const routeMatcher = (path: string): PathMatcher => matcher(path, true);

/** Whether a request's path is `root` or below it, as the router reads a prefix. */
export const prefixMatcher = (root: string): PathMatcher => matcher(root, false);

/** Strapi's REST prefix (`api.rest.prefix`, `/api` by default) as one leading slash and no trailing one; '' for none. */
export function restPrefix(configured: unknown): string {
  const trimmed = String(configured ?? '/api').replace(/^\/+|\/+$/g, '');
  return trimmed ? `/${trimmed}` : '';
}
