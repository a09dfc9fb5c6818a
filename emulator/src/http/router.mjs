/** Route matching: method + path pattern (":name" segments), per listener. */

/**
 * @typedef {object} RequestContext
 * @property {import('node:http').IncomingMessage} req
 * @property {import('node:http').ServerResponse} res
 * @property {URL} url
 * @property {Record<string, string>} params
 * @property {'base'|'web'} listener
 * @property {import('../server.mjs').Runtime} runtime
 * @property {import('../auth.mjs').Principal | null} principal  set for authenticated routes
 * @property {import('./request-log.mjs').RequestLogEntry} log
 */

/**
 * @typedef {object} Route
 * @property {string} name     used by injections' `target`
 * @property {string} method
 * @property {string} path     e.g. "/api/v1/stt/status/:jobId/" (the trailing slash matters)
 * @property {'base'|'web'|'both'} listener  which address serves it (base_url or web_url)
 * @property {'article'|'general'|null} auth  null = public; otherwise the error model of a 401
 * @property {boolean} rateLimited
 * @property {(ctx: RequestContext) => Promise<void>} handler
 */

/**
 * @param {Route[]} routes
 * @returns {(method: string, pathname: string, listener: 'base'|'web', sharedPort: boolean) =>
 *   { route: Route, params: Record<string, string> } | { allowed: string[] } | null}
 */
export function createRouter(routes) {
  const compiled = routes.map((route) => ({ route, segments: route.path.split('/') }));
  return (method, pathname, listener, sharedPort) => {
    const parts = pathname.split('/');
    /** @type {string[]} */
    const allowed = [];
    for (const { route, segments } of compiled) {
      // On one shared port everything is served; with a web port each address serves its own endpoints.
      if (!sharedPort && route.listener !== 'both' && route.listener !== listener) continue;
      const params = matchSegments(segments, parts);
      if (!params) continue;
      if (route.method === method || (route.method === 'GET' && method === 'HEAD')) return { route, params };
      allowed.push(route.method);
    }
    return allowed.length ? { allowed } : null;
  };
}

/** @param {string[]} pattern @param {string[]} parts */
function matchSegments(pattern, parts) {
  if (pattern.length !== parts.length) return null;
  /** @type {Record<string, string>} */
  const params = {};
  for (let i = 0; i < pattern.length; i++) {
    if (pattern[i].startsWith(':')) {
      if (!parts[i]) return null;
      try {
        params[pattern[i].slice(1)] = decodeURIComponent(parts[i]);
      } catch {
        return null;
      }
    } else if (pattern[i] !== parts[i]) return null;
  }
  return params;
}
