/**
 * Every tunable of the emulator in one table. The same table drives defaults, CLI flags
 * (`--generation-delay-ms 200`), environment variables (`EMULATOR_GENERATION_DELAY_MS=200`)
 * and `PUT /__control/config`, so a knob is declared exactly once.
 */

/** @typedef {{ requests: number, windowSec: number }} RateLimit */

/**
 * @typedef {object} Knobs
 * @property {number} generationDelayMs   Wait before narration synthesis starts.
 * @property {number} callbackDelayMs     Extra wait before a callback is POSTed (slow delivery).
 * @property {number} callbackDuplicates  How many copies of each callback are POSTed.
 * @property {boolean} callbackConcurrentDuplicates  POST the copies at the same time instead of one after another.
 * @property {number} callbackRetries     Retries after a failed delivery attempt (non-2xx or network error).
 * @property {number} callbackRetryDelayMs  First retry wait; doubled on every further retry.
 * @property {number} callbackTimeoutMs   Per-attempt timeout of a callback POST.
 * @property {boolean} noAudio            Every narration produces no audio (null callback, refund).
 * @property {boolean} generationFailure  Every narration fails (null callback, refund).
 * @property {boolean} refundFailure      Every refund fails (REFUND_FAILED event, credits kept).
 * @property {number} startingCredits     Credits of a company when it is first seen.
 * @property {RateLimit} rateLimit        Requests per window, per API key and endpoint.
 * @property {number} maxTextLength       Max characters (code points) of /process-text `text`.
 * @property {number} ttsMaxTextLength    Max characters (code points) of TTS `text`.
 * @property {number} ttsDelayMs          Artificial latency of TTS (widens the 409 CONCURRENT_REQUEST window).
 * @property {number} mediaDelayMs        Wait before a media file (a narration's MP3 or SRT) is served: a slow media host.
 * @property {number} sttQueuedMs         Time an STT job stays `queued`.
 * @property {number} sttProcessingMs     Minimum time an STT job stays `processing`.
 * @property {number} sttMaxUploadBytes   STT upload limit (spec: 50 MB).
 * @property {number} sttCreditsPerJob    Credits an STT job costs, charged when it is accepted. The contract prices
 *   narration only: 0 (free) unless a test prices speech to text, whose answer then carries the credit headers.
 * @property {number} maxNarratedSentences  Sentences of an article that are actually synthesized (cost bound).
 * @property {number} maxCueChars         Longer sentences are split into cues of at most this many characters.
 * @property {number} sentenceGapMs       Silence inserted between synthesized sentences.
 * @property {string[]} apiKeys           Valid API keys (each key is one company).
 * @property {string[]} revokedKeys       Keys answered with 401 (revoked).
 * @property {Record<string, string[]>} restrictedKeys  Valid keys that get 403 FORBIDDEN for the listed voices (narration and TTS).
 * @property {string|null} publicBaseUrl  Base of media URLs in callbacks; default is the emulator's own base URL.
 */

/**
 * @typedef {object} ServerOptions
 * @property {string} host      Interface to bind (127.0.0.1 unless you really mean otherwise).
 * @property {number} port      Port of base_url (0 = pick a free one).
 * @property {number|null} webPort  Separate port for web_url; null = web endpoints share `port`.
 * @property {boolean} quiet    Suppress informational stderr logging.
 * @property {string|null} speechCache  Folder where each sentence's synthesized speech is kept, and
 *   taken from when the same voice says the same sentence again (eSpeak is deterministic): test
 *   runs say the same sentences many times. null: every sentence is synthesized.
 * @property {Array<Record<string, unknown>>} injections  Injections queued at start-up.
 */

/** @typedef {Knobs & ServerOptions} EmulatorOptions */

/** @typedef {'int'|'bool'|'string'|'nullable-string'|'string-list'|'rate-limit'|'restricted-keys'} KnobType */

/** @type {Record<keyof Knobs, { type: KnobType, min?: number, default: any }>} */
export const KNOB_SCHEMA = {
  generationDelayMs: { type: 'int', min: 0, default: 1500 },
  callbackDelayMs: { type: 'int', min: 0, default: 0 },
  callbackDuplicates: { type: 'int', min: 1, default: 1 },
  callbackConcurrentDuplicates: { type: 'bool', default: false },
  callbackRetries: { type: 'int', min: 0, default: 3 },
  callbackRetryDelayMs: { type: 'int', min: 0, default: 500 },
  callbackTimeoutMs: { type: 'int', min: 1, default: 5000 },
  noAudio: { type: 'bool', default: false },
  generationFailure: { type: 'bool', default: false },
  refundFailure: { type: 'bool', default: false },
  startingCredits: { type: 'int', min: 0, default: 100000 },
  rateLimit: { type: 'rate-limit', default: { requests: 60, windowSec: 60 } },
  maxTextLength: { type: 'int', min: 1, default: 100000 },
  ttsMaxTextLength: { type: 'int', min: 1, default: 5000 },
  ttsDelayMs: { type: 'int', min: 0, default: 0 },
  mediaDelayMs: { type: 'int', min: 0, default: 0 },
  sttQueuedMs: { type: 'int', min: 0, default: 1000 },
  sttProcessingMs: { type: 'int', min: 0, default: 1000 },
  sttMaxUploadBytes: { type: 'int', min: 1, default: 50 * 1024 * 1024 },
  sttCreditsPerJob: { type: 'int', min: 0, default: 0 },
  maxNarratedSentences: { type: 'int', min: 1, default: 60 },
  maxCueChars: { type: 'int', min: 20, default: 200 },
  sentenceGapMs: { type: 'int', min: 0, default: 300 },
  apiKeys: { type: 'string-list', default: ['emulator-dev-key'] },
  revokedKeys: { type: 'string-list', default: ['emulator-revoked-key'] },
  restrictedKeys: { type: 'restricted-keys', default: { 'emulator-restricted-key': ['ar-female-1', 'en-female-1'] } },
  publicBaseUrl: { type: 'nullable-string', default: null },
};

/** Short CLI/env spellings promised in the README, on top of the derived ones. */
const ALIASES = /** @type {const} */ ({
  delay: 'generationDelayMs',
  credits: 'startingCredits',
  'public-url': 'publicBaseUrl',
});

export class ConfigError extends Error {}

/** @param {string} name camelCase */
const toKebab = (name) => name.replace(/[A-Z0-9]+/g, (m) => `-${m.toLowerCase()}`);
/** @param {string} kebab */
const toEnvName = (kebab) => `EMULATOR_${kebab.replace(/-/g, '_').toUpperCase()}`;

/** @returns {Knobs} a fresh copy of the defaults (callers mutate their copy). */
export function defaultKnobs() {
  return /** @type {Knobs} */ (Object.fromEntries(Object.entries(KNOB_SCHEMA).map(([k, s]) => [k, structuredClone(s.default)])));
}

/**
 * Parses one knob value given as text (CLI or env).
 * @param {keyof Knobs} name @param {string} text
 */
function parseKnobText(name, text) {
  const { type } = KNOB_SCHEMA[name];
  switch (type) {
    case 'int':
      return validateKnob(name, text.trim() === '' ? NaN : Number(text));
    case 'bool':
      if (!['true', 'false', '1', '0', ''].includes(text.trim().toLowerCase())) throw new ConfigError(`${name}: expected true or false`);
      return ['true', '1', ''].includes(text.trim().toLowerCase());
    case 'string':
    case 'nullable-string':
      return text === '' && type === 'nullable-string' ? null : text;
    case 'string-list':
      return text
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean);
    case 'rate-limit': {
      // "60/60" = 60 requests per 60 seconds; "60" = per 60 seconds.
      const [requests, windowSec = '60'] = text.split('/');
      return validateKnob(name, { requests: Number(requests), windowSec: Number(windowSec) });
    }
    case 'restricted-keys': {
      // "key1=voiceA+voiceB;key2=voiceC" (commas are taken by --api-keys lists).
      /** @type {Record<string, string[]>} */
      const out = {};
      for (const entry of text
        .split(';')
        .map((s) => s.trim())
        .filter(Boolean)) {
        const [key, voices = ''] = entry.split('=');
        out[key.trim()] = voices
          .split('+')
          .map((v) => v.trim())
          .filter(Boolean);
      }
      return out;
    }
    default:
      throw new ConfigError(`${name}: unsupported type`);
  }
}

/**
 * Validates a knob value given as JSON (control API) or already parsed; returns it or throws.
 * @param {string} name @param {unknown} value
 */
export function validateKnob(name, value) {
  const schema = /** @type {Record<string, {type: KnobType, min?: number}>} */ (KNOB_SCHEMA)[name];
  if (!schema) throw new ConfigError(`${name}: unknown setting`);
  const isInt = (/** @type {unknown} */ v, min = 0) => Number.isInteger(v) && /** @type {number} */ (v) >= min;
  const fail = (/** @type {string} */ why) => {
    throw new ConfigError(`${name}: ${why}`);
  };
  switch (schema.type) {
    case 'int':
      if (!isInt(value, schema.min)) fail(`expected an integer >= ${schema.min}`);
      return value;
    case 'bool':
      if (typeof value !== 'boolean') fail('expected a boolean');
      return value;
    case 'string':
      if (typeof value !== 'string') fail('expected a string');
      return value;
    case 'nullable-string':
      if (value !== null && typeof value !== 'string') fail('expected a string or null');
      return value;
    case 'string-list':
      if (!Array.isArray(value) || !value.every((v) => typeof v === 'string' && v.length > 0)) fail('expected a list of non-empty strings');
      return value;
    case 'rate-limit': {
      const rl = /** @type {any} */ (value);
      if (!rl || !isInt(rl.requests, 1) || !isInt(rl.windowSec, 1)) fail('expected { requests >= 1, windowSec >= 1 } (CLI: "60/60")');
      return { requests: rl.requests, windowSec: rl.windowSec };
    }
    case 'restricted-keys': {
      const ok =
        value &&
        typeof value === 'object' &&
        !Array.isArray(value) &&
        Object.values(value).every((v) => Array.isArray(v) && v.every((x) => typeof x === 'string'));
      if (!ok) fail('expected { "<api key>": ["voice-id", ...] }');
      return value;
    }
  }
  return fail('unsupported type');
}

/**
 * Applies a partial knob object (from the control API or the programmatic API), all-or-nothing.
 * @param {Knobs} knobs @param {Record<string, unknown>} patch
 * @returns {Knobs} a new object
 */
export function applyKnobPatch(knobs, patch) {
  const next = structuredClone(knobs);
  for (const [name, value] of Object.entries(patch)) {
    /** @type {any} */ (next)[name] = validateKnob(name, value);
  }
  return next;
}

/** Known CLI flags that are not knobs. */
const SERVER_FLAGS = {
  port: 'port',
  'web-port': 'webPort',
  host: 'host',
  quiet: 'quiet',
  'speech-cache': 'speechCache',
};

/**
 * CLI/env spellings of the injection shorthands:
 *   --http5xx 2@tts          (next 2 tts requests answer 500)
 *   --rate-limit-429 3:5@process-text  (next 3 answer 429 with Retry-After 5)
 *   --inject '{"kind":"noAudio","articleId":"a1"}'  (any injection, JSON object or array)
 * @param {string} flag @param {string} text @returns {Array<Record<string, unknown>>}
 */
function parseInjectionFlag(flag, text) {
  if (flag === 'inject') {
    let parsed;
    try {
      parsed = JSON.parse(text);
    } catch {
      throw new ConfigError('--inject: expected a JSON object or array');
    }
    return Array.isArray(parsed) ? parsed : [parsed];
  }
  const [spec, target] = text.split('@');
  const [count, retryAfter] = spec.split(':');
  /** @type {Record<string, unknown>} */
  const injection = { kind: flag === 'http5xx' ? 'http5xx' : 'rateLimit429', count: Number(count || 1) };
  if (target) injection.target = target;
  if (retryAfter !== undefined) injection.retryAfter = Number(retryAfter);
  return [injection];
}
const INJECTION_FLAGS = ['http5xx', 'rate-limit-429', 'inject'];

/**
 * Builds the start-up options from argv and env (flags win over env, env over defaults).
 * @param {string[]} argv  process.argv.slice(2)
 * @param {NodeJS.ProcessEnv} env
 * @returns {Partial<EmulatorOptions>}
 */
export function parseCommandLine(argv, env) {
  /** @type {Record<string, string>} kebab flag -> option name */
  const flagToOption = { ...SERVER_FLAGS, ...ALIASES };
  for (const name of Object.keys(KNOB_SCHEMA)) flagToOption[toKebab(name)] = name;

  /** @type {Record<string, unknown>} */
  const options = {};
  /** @type {Array<Record<string, unknown>>} */
  const injections = [];

  /** @param {string} flag @param {string} text @param {string} origin */
  const set = (flag, text, origin) => {
    if (INJECTION_FLAGS.includes(flag)) {
      injections.push(...parseInjectionFlag(flag, text));
      return;
    }
    const option = flagToOption[flag];
    if (!option) throw new ConfigError(`unknown option ${origin}`);
    if (option === 'port' || option === 'webPort') {
      const port = Number(text);
      if (!Number.isInteger(port) || port < 0 || port > 65535) throw new ConfigError(`${origin}: expected a port number`);
      options[option] = port;
    } else if (option === 'host') options.host = text;
    else if (option === 'speechCache') options.speechCache = text || null;
    else if (option === 'quiet') options.quiet = text === '' || text === 'true' || text === '1';
    else options[option] = parseKnobText(/** @type {keyof Knobs} */ (option), text);
  };

  // Environment first, so flags override it.
  const envFlags = [...Object.keys(flagToOption), ...INJECTION_FLAGS];
  for (const flag of envFlags) {
    const value = env[toEnvName(flag)];
    if (value !== undefined) set(flag, value, toEnvName(flag));
  }

  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (!arg.startsWith('--')) throw new ConfigError(`unexpected argument ${arg}`);
    const eq = arg.indexOf('=');
    const flag = eq === -1 ? arg.slice(2) : arg.slice(2, eq);
    const option = flagToOption[flag];
    const isBoolean = option === 'quiet' || KNOB_SCHEMA[/** @type {keyof Knobs} */ (option)]?.type === 'bool';
    let text;
    if (eq !== -1) text = arg.slice(eq + 1);
    else if (isBoolean) text = '';
    else {
      text = argv[++i];
      if (text === undefined) throw new ConfigError(`--${flag} needs a value`);
    }
    set(flag, text, `--${flag}`);
  }
  if (injections.length) options.injections = injections;
  return /** @type {Partial<EmulatorOptions>} */ (options);
}

/**
 * Fills in defaults and validates programmatic options.
 * @param {Partial<EmulatorOptions>} [partial]
 * @returns {EmulatorOptions}
 */
export function resolveOptions(partial = {}) {
  const { host = '127.0.0.1', port = 0, webPort = null, quiet = false, speechCache = null, injections = [], ...knobPatch } = partial;
  const knobs = applyKnobPatch(defaultKnobs(), /** @type {Record<string, unknown>} */ (knobPatch));
  return { ...knobs, host, port, webPort, quiet, speechCache, injections };
}

/** @param {EmulatorOptions} options @returns {Knobs} */
export function knobsOf(options) {
  return /** @type {Knobs} */ (
    Object.fromEntries(Object.keys(KNOB_SCHEMA).map((k) => [k, structuredClone(/** @type {any} */ (options)[k])]))
  );
}

/** For --help: every flag with its env variable and default. */
export function describeFlags() {
  const lines = [
    '--port <n>              EMULATOR_PORT            base_url port (0 = free port; default 4010 from the CLI)',
    '--web-port <n>          EMULATOR_WEB_PORT        separate web_url port (0 = free port); default: same as --port',
    '--host <addr>           EMULATOR_HOST            default 127.0.0.1',
    '--quiet                 EMULATOR_QUIET           less stderr logging',
    "--speech-cache <dir>    EMULATOR_SPEECH_CACHE    keep each sentence's speech in <dir> and say it again from there (tests)",
    '--delay <ms>            alias of --generation-delay-ms',
    '--credits <n>           alias of --starting-credits',
    '--public-url <url>      alias of --public-base-url',
    '--http5xx <n>[@route]   next n requests answer 500 INTERNAL_ERROR',
    '--rate-limit-429 <n>[:retryAfterSec][@route]  next n requests answer 429',
    '--inject <json>         any injection (see README), JSON object or array',
  ];
  for (const [name, schema] of Object.entries(KNOB_SCHEMA)) {
    const flag = `--${toKebab(name)}`;
    lines.push(`${flag.padEnd(32)} ${toEnvName(toKebab(name)).padEnd(40)} default ${JSON.stringify(schema.default)}`);
  }
  return lines.join('\n');
}
