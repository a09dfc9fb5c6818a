/**
 * Queued failure injections. Each one fires for the next `count` matching events (requests,
 * generations, callbacks or STT jobs) — optionally only for one articleId or one route — so
 * tests can say exactly which request fails. Always-on failure modes are knobs (config.mjs).
 */

export const ROUTE_TARGETS = ['any', 'process-text', 'voices', 'stt-submit', 'stt-status', 'tts', 'media'];

/** @typedef {{ type: 'int'|'bool'|'string', min?: number, default?: unknown, required?: boolean, check?: (value: string) => string | null }} InjectionField */

/** @param {string} value */
const notBlank = (value) => (value.trim() ? null : 'must not be blank');
/** @param {string} value */
const oneWord = (value) => notBlank(value) ?? (/\s/u.test(value) ? 'must be a single word (no spaces)' : null);

/**
 * scope says where an injection is consumed:
 *  - request: when a request for `target` arrives (before auth for http5xx, at the rate-limit step for 429)
 *  - narration: when /process-text accepts a request that starts a generation (sync*, generationFailure, noAudio, lostAnswer,
 *    dropSentence, replaceWord), when a refund is attempted (refundFailure), or when a callback is delivered (slowCallback,
 *    duplicateCallback)
 *  - stt: when an STT job is created
 * A string field's `check` says what is wrong with its value, or returns null.
 * @type {Record<string, { scope: 'request'|'narration'|'stt', fields: Record<string, InjectionField> }>}
 */
export const INJECTION_KINDS = {
  http5xx: { scope: 'request', fields: {} },
  rateLimit429: { scope: 'request', fields: { retryAfter: { type: 'int', min: 0, default: 30 } } },
  syncProcessingError: { scope: 'narration', fields: {} },
  syncRefundFailed: { scope: 'narration', fields: {} },
  generationFailure: { scope: 'narration', fields: {} },
  noAudio: { scope: 'narration', fields: {} },
  refundFailure: { scope: 'narration', fields: {} },
  slowCallback: { scope: 'narration', fields: { delayMs: { type: 'int', min: 0, required: true } } },
  // The request is acted on (charged, generation started) but its answer never reaches the client:
  // after holdMs the connection is closed without a response, as when a proxy or the network drops it.
  lostAnswer: { scope: 'narration', fields: { holdMs: { type: 'int', min: 0, default: 0 } } },
  duplicateCallback: {
    scope: 'narration',
    fields: { times: { type: 'int', min: 2, default: 2 }, concurrent: { type: 'bool', default: false } },
  },
  // The audio says something other than the text that was sent (speech-faults.mjs); STT transcribes the audio.
  dropSentence: { scope: 'narration', fields: { sentence: { type: 'int', min: 0, default: 1 } } },
  replaceWord: {
    scope: 'narration',
    fields: { word: { type: 'string', required: true, check: oneWord }, with: { type: 'string', required: true, check: notBlank } },
  },
  sttJobFailure: { scope: 'stt', fields: { message: { type: 'string', default: 'Transcription failed (injected by the emulator).' } } },
  sttStuck: { scope: 'stt', fields: {} },
};

/**
 * @typedef {{ id: number, kind: string, remaining: number, target?: string, articleId?: string, createdAt: string } & Record<string, unknown>} Injection
 */

export class InjectionError extends Error {}

/**
 * Validates an injection request body and fills defaults.
 * @param {unknown} body
 * @returns {Omit<Injection, 'id'|'createdAt'>}
 */
export function parseInjection(body) {
  if (!body || typeof body !== 'object' || Array.isArray(body)) throw new InjectionError('Expected a JSON object.');
  const input = /** @type {Record<string, unknown>} */ (body);
  const kind = String(input.kind ?? '');
  const spec = INJECTION_KINDS[kind];
  if (!spec) throw new InjectionError(`kind must be one of: ${Object.keys(INJECTION_KINDS).join(', ')}`);

  const count = input.count ?? 1;
  if (!Number.isInteger(count) || /** @type {number} */ (count) < 1) throw new InjectionError('count must be an integer >= 1');
  /** @type {Omit<Injection, 'id'|'createdAt'>} */
  const injection = { kind, remaining: /** @type {number} */ (count) };

  if (spec.scope === 'request') {
    const target = input.target ?? 'any';
    if (!ROUTE_TARGETS.includes(String(target))) throw new InjectionError(`target must be one of: ${ROUTE_TARGETS.join(', ')}`);
    injection.target = String(target);
  } else if (input.target !== undefined) {
    throw new InjectionError(`target does not apply to ${kind}`);
  }
  if (input.articleId !== undefined) {
    if (spec.scope !== 'narration') throw new InjectionError(`articleId does not apply to ${kind}`);
    if (typeof input.articleId !== 'string' || !input.articleId) throw new InjectionError('articleId must be a non-empty string');
    injection.articleId = input.articleId;
  }
  for (const [name, field] of Object.entries(spec.fields)) {
    const value = input[name] ?? field.default;
    if (value === undefined) {
      if (field.required) throw new InjectionError(`${name} is required for ${kind}`);
      continue;
    }
    const valid =
      field.type === 'int'
        ? Number.isInteger(value) && /** @type {number} */ (value) >= (field.min ?? 0)
        : field.type === 'bool'
          ? typeof value === 'boolean'
          : typeof value === 'string';
    if (!valid)
      throw new InjectionError(
        `${name} must be ${field.type === 'int' ? `an integer >= ${field.min ?? 0}` : `a ${field.type === 'bool' ? 'boolean' : 'string'}`}`
      );
    const problem = field.check?.(/** @type {string} */ (value));
    if (problem) throw new InjectionError(`${name} ${problem}`);
    injection[name] = value;
  }
  const known = new Set(['kind', 'count', 'target', 'articleId', ...Object.keys(spec.fields)]);
  const unknown = Object.keys(input).filter((k) => !known.has(k));
  if (unknown.length) throw new InjectionError(`unknown field(s) for ${kind}: ${unknown.join(', ')}`);
  return injection;
}

export class InjectionQueue {
  constructor() {
    /** @type {Injection[]} */
    this.items = [];
    this.nextId = 1;
  }

  /** @param {unknown} body @returns {Injection} */
  add(body) {
    /** @type {Injection} */
    const injection = /** @type {Injection} */ ({ id: this.nextId++, ...parseInjection(body), createdAt: new Date().toISOString() });
    this.items.push(injection);
    return { ...injection };
  }

  /**
   * Consumes one use of the first matching injection (insertion order).
   * @param {string} kind
   * @param {{ route?: string, articleId?: string, matchesAny?: boolean }} [event]
   *   matchesAny: false for routes that only explicit targets hit (media downloads), so a test's
   *   "next request fails" injection is not eaten by a file download.
   * @returns {Injection | null}
   */
  take(kind, event = {}) {
    const { matchesAny = true } = event;
    const index = this.items.findIndex(
      (i) =>
        i.kind === kind &&
        (i.target === undefined || (i.target === 'any' && matchesAny) || i.target === event.route) &&
        (i.articleId === undefined || i.articleId === event.articleId)
    );
    if (index === -1) return null;
    const injection = this.items[index];
    injection.remaining -= 1;
    if (injection.remaining <= 0) this.items.splice(index, 1);
    return { ...injection };
  }

  list() {
    return this.items.map((i) => ({ ...i }));
  }

  clear() {
    this.items = [];
  }
}
