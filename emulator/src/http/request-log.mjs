/**
 * Every service request the emulator received (control requests are not logged), for tests
 * that assert what a client sent. Credentials never enter the log: the Authorization header is
 * replaced by a description (present, scheme, whether the key was accepted, which company).
 */

/** Headers whose values are secrets whatever they contain. */
const SECRET_HEADERS = new Set(['authorization', 'proxy-authorization', 'cookie', 'x-api-key']);
const MAX_ENTRIES = 1000;

/**
 * @typedef {object} RequestLogEntry
 * @property {number} id
 * @property {string} at  ISO time the request arrived
 * @property {'base'|'web'} server  which listener received it
 * @property {string} method
 * @property {string} path
 * @property {Record<string, string>} query
 * @property {Record<string, string | string[]>} headers  secrets replaced by "[REDACTED]"
 * @property {{ present: boolean, scheme: string | null, accepted: boolean | null, company: string | null }} auth
 * @property {string | null} route  name of the matched route
 * @property {unknown} [body]  parsed JSON body, or a multipart summary
 * @property {number | null} status  response status, once sent
 * @property {string | null} errorCode  error.code of an error response
 * @property {number | null} durationMs
 */

export class RequestLog {
  constructor() {
    /** @type {RequestLogEntry[]} */
    this.entries = [];
    this.nextId = 1;
  }

  /**
   * @param {import('node:http').IncomingMessage} req @param {URL} url @param {'base'|'web'} server
   * @returns {RequestLogEntry}
   */
  start(req, url, server) {
    /** @type {Record<string, string | string[]>} */
    const headers = {};
    for (const [name, value] of Object.entries(req.headers)) {
      if (value !== undefined) headers[name] = SECRET_HEADERS.has(name) ? '[REDACTED]' : value;
    }
    const authorization = req.headers.authorization;
    /** @type {RequestLogEntry} */
    const entry = {
      id: this.nextId++,
      at: new Date().toISOString(),
      server,
      method: req.method ?? 'GET',
      path: url.pathname,
      query: Object.fromEntries(url.searchParams),
      headers,
      auth: {
        present: Boolean(authorization),
        scheme: authorization ? authorization.trim().split(/\s+/)[0] : null,
        accepted: null,
        company: null,
      },
      route: null,
      status: null,
      errorCode: null,
      durationMs: null,
    };
    this.entries.push(entry);
    if (this.entries.length > MAX_ENTRIES) this.entries.shift();
    return entry;
  }

  list() {
    return this.entries;
  }

  clear() {
    this.entries = [];
  }
}
