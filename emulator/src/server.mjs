/**
 * The speech-service emulator as a library: `startEmulator(options)` listens on 127.0.0.1 and
 * answers the whole contract of shared/spec/speech-services-interface.md, plus /__control/.
 */
import { createServer } from 'node:http';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { resolveOptions, knobsOf, applyKnobPatch } from './config.mjs';
import { KeyRing, AUTH_FAILURE_MESSAGES } from './auth.mjs';
import { EmulatorState } from './state.mjs';
import { ApiError, errors } from './http/errors.mjs';
import { sendError } from './http/respond.mjs';
import { createRouter } from './http/router.mjs';
import { processText } from './narration/process-text.mjs';
import { submitStt, sttStatus } from './stt/routes.mjs';
import { generateSpeech, listVoices } from './tts/routes.mjs';
import { serveMedia } from './media-route.mjs';
import { SpeechSynthesizer } from './speech/synthesizer.mjs';
import { CONTROL_ROUTES } from './control/routes.mjs';

/** @type {import('./http/router.mjs').Route[]} */
const SERVICE_ROUTES = [
  {
    name: 'process-text',
    method: 'POST',
    path: '/process-text',
    listener: 'base',
    auth: 'article',
    rateLimited: true,
    handler: processText,
  },
  { name: 'voices', method: 'GET', path: '/api/v1/voices', listener: 'web', auth: 'general', rateLimited: true, handler: listVoices },
  {
    name: 'stt-submit',
    method: 'POST',
    path: '/api/v1/stt/submit/',
    listener: 'web',
    auth: 'general',
    rateLimited: true,
    handler: submitStt,
  },
  {
    name: 'stt-status',
    method: 'GET',
    path: '/api/v1/stt/status/:jobId/',
    listener: 'web',
    auth: 'general',
    rateLimited: true,
    handler: sttStatus,
  },
  {
    name: 'tts',
    method: 'POST',
    path: '/api/v1/tts/generate',
    listener: 'web',
    auth: 'general',
    rateLimited: true,
    handler: generateSpeech,
  },
  { name: 'media', method: 'GET', path: '/media/:file', listener: 'both', auth: null, rateLimited: false, handler: serveMedia },
];

const routeService = createRouter(SERVICE_ROUTES);
const routeControl = createRouter(CONTROL_ROUTES);

/** Live settings and state of one emulator; handlers reach everything through it. */
export class Runtime {
  /** @param {import('./config.mjs').EmulatorOptions} options @param {string} tmpDir */
  constructor(options, tmpDir) {
    this.options = options;
    this.tmpDir = tmpDir;
    this.knobs = knobsOf(options);
    this.keys = new KeyRing(this.knobs);
    /** Survives resets: a reset aborts the state's signal, which stops the state's syntheses. */
    this.synthesizer = new SpeechSynthesizer({ cacheDir: options.speechCache });
    this.state = this.freshState();
    this.baseUrl = '';
    this.webUrl = '';
    this.sharedPort = options.webPort === null;
    /** @param {string} message */
    this.log = (message) => {
      if (!options.quiet) process.stderr.write(`[emulator] ${message}\n`);
    };
    /** @param {string} message */
    this.logError = (message) => process.stderr.write(`[emulator] ${message}\n`);
  }

  freshState() {
    const state = new EmulatorState(() => this.knobs);
    for (const injection of this.options.injections) state.injections.add(injection);
    return state;
  }

  /** @param {Record<string, unknown>} patch */
  updateKnobs(patch) {
    this.knobs = applyKnobPatch(this.knobs, patch);
    this.keys = new KeyRing(this.knobs);
  }

  /**
   * Back to the start-up configuration with empty state (credits, articles, jobs, callbacks,
   * log, media); start-up injections are queued again.
   * @param {{ keepConfig?: boolean }} [options]
   */
  reset({ keepConfig = false } = {}) {
    this.state.dispose();
    if (!keepConfig) {
      this.knobs = knobsOf(this.options);
      this.keys = new KeyRing(this.knobs);
    }
    this.state = this.freshState();
  }

  /** @param {string} name file name under /media/ */
  mediaUrl(name) {
    return `${(this.knobs.publicBaseUrl ?? this.baseUrl).replace(/\/+$/, '')}/media/${name}`;
  }

  /** What background work needs, bound to the state that is current *now*. */
  backgroundContext() {
    return {
      state: this.state,
      knobs: () => this.knobs,
      mediaUrl: (/** @type {string} */ n) => this.mediaUrl(n),
      logError: this.logError,
      synthesizer: this.synthesizer,
    };
  }
}

/**
 * @param {Runtime} runtime
 * @param {'base'|'web'} listener
 * @param {import('node:http').IncomingMessage} req
 * @param {import('node:http').ServerResponse} res
 */
async function handleRequest(runtime, listener, req, res) {
  const url = new URL(req.url ?? '/', 'http://emulator.invalid');
  const method = req.method ?? 'GET';
  const isControl = url.pathname.startsWith('/__control/');
  const { state } = runtime;
  // Control calls are not logged: the log is for what a client of the service sent.
  const log = isControl ? /** @type {any} */ ({ auth: {} }) : state.requests.start(req, url, listener);
  const startedAt = Date.now();
  res.on('finish', () => {
    log.status = res.statusCode;
    log.durationMs = Date.now() - startedAt;
  });
  /** @type {import('./http/router.mjs').RequestContext} */
  const ctx = { req, res, url, params: {}, listener, runtime, principal: null, log };
  try {
    const match = (isControl ? routeControl : routeService)(method, url.pathname, listener, runtime.sharedPort);
    if (!match) throw errors.notFound(`No endpoint ${method} ${url.pathname} on this address.`);
    if ('allowed' in match) {
      throw new ApiError(405, 'METHOD_NOT_ALLOWED', `${method} is not allowed on ${url.pathname}.`, {
        headers: { Allow: match.allowed.join(', ') },
      });
    }
    const { route, params } = match;
    ctx.params = params;
    log.route = route.name;
    if (!isControl && state.injections.take('http5xx', { route: route.name, matchesAny: route.name !== 'media' })) throw errors.internal();
    if (route.auth) ctx.principal = authenticate(ctx, route.auth);
    if (route.rateLimited) enforceRateLimit(ctx, route.name);
    await route.handler(ctx);
  } catch (error) {
    respondWithError(ctx, error);
  }
}

/**
 * @param {import('./http/router.mjs').RequestContext} ctx
 * @param {'article'|'general'} model  /process-text says AUTH_FAILED, the general model UNAUTHORIZED
 */
function authenticate(ctx, model) {
  const result = ctx.runtime.keys.authenticate(ctx.req.headers.authorization);
  ctx.log.auth.accepted = result.ok;
  if (result.ok) {
    ctx.log.auth.company = result.principal.company;
    return result.principal;
  }
  throw new ApiError(401, model === 'article' ? 'AUTH_FAILED' : 'UNAUTHORIZED', AUTH_FAILURE_MESSAGES[result.reason]);
}

/** @param {import('./http/router.mjs').RequestContext} ctx @param {string} routeName */
function enforceRateLimit(ctx, routeName) {
  const { state } = ctx.runtime;
  const company = /** @type {import('./auth.mjs').Principal} */ (ctx.principal).company;
  const injected = state.injections.take('rateLimit429', { route: routeName });
  const verdict = injected
    ? { allowed: false, resetAfterSec: /** @type {number} */ (injected.retryAfter) }
    : state.rateLimiter.take(`${company}:${routeName}`);
  if (!verdict.allowed) {
    throw errors.rateLimited({
      creditsRemaining: state.credits.balance(company),
      resetAfterSec: /** @type {number} */ (verdict.resetAfterSec),
    });
  }
}

/** @param {import('./http/router.mjs').RequestContext} ctx @param {unknown} error */
function respondWithError(ctx, error) {
  let apiError;
  if (error instanceof ApiError) apiError = error;
  else {
    ctx.runtime.logError(
      `unexpected error on ${ctx.req.method} ${ctx.url.pathname}: ${error instanceof Error ? error.stack : String(error)}`
    );
    apiError = errors.internal();
  }
  ctx.log.errorCode = apiError.code;
  if (ctx.res.headersSent) ctx.res.destroy();
  else sendError(ctx.res, apiError);
}

/**
 * @param {import('node:http').Server} server @param {string} host @param {number} port
 * @returns {Promise<number>} the bound port
 */
function listen(server, host, port) {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve(/** @type {import('node:net').AddressInfo} */ (server.address()).port);
    });
  });
}

/** @param {string} host @param {number} port */
function urlFor(host, port) {
  const visible = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host;
  return `http://${visible.includes(':') ? `[${visible}]` : visible}:${port}`;
}

/**
 * @typedef {object} RunningEmulator
 * @property {string} url      base_url (article endpoint, media, control)
 * @property {string} webUrl   web_url (STT, TTS, voices); equals url unless webPort was given
 * @property {number} port
 * @property {number} webPort
 * @property {() => Promise<void>} close
 * @property {EmulatorState} state  the current state (replaced on reset)
 * @property {Runtime} runtime
 */

/**
 * @param {Partial<import('./config.mjs').EmulatorOptions>} [partialOptions]
 * @returns {Promise<RunningEmulator>}
 */
export async function startEmulator(partialOptions = {}) {
  const options = resolveOptions(partialOptions);
  const tmpDir = await mkdtemp(join(tmpdir(), 'speech-emulator-'));
  const runtime = new Runtime(options, tmpDir);

  /** @param {'base'|'web'} listener */
  const makeServer = (listener) =>
    createServer((req, res) => {
      handleRequest(runtime, listener, req, res).catch((error) => {
        runtime.logError(`request handling crashed: ${error instanceof Error ? error.stack : String(error)}`);
        res.destroy();
      });
    });
  const servers = [makeServer('base')];
  const port = await listen(servers[0], options.host, options.port);
  let webPort = port;
  if (options.webPort !== null) {
    servers.push(makeServer('web'));
    webPort = await listen(servers[1], options.host, options.webPort);
  }
  runtime.baseUrl = urlFor(options.host, port);
  runtime.webUrl = urlFor(options.host, webPort);
  runtime.synthesizer.warmUp();

  let closed = false;
  return {
    url: runtime.baseUrl,
    webUrl: runtime.webUrl,
    port,
    webPort,
    runtime,
    get state() {
      return runtime.state;
    },
    async close() {
      if (closed) return;
      closed = true;
      runtime.state.dispose();
      await Promise.all(
        servers.map(
          (server) =>
            new Promise((resolve) => {
              server.close(() => resolve(undefined));
              server.closeAllConnections();
            })
        )
      );
      await runtime.synthesizer.close(); // the worker thread would otherwise outlive the emulator
      await rm(tmpDir, { recursive: true, force: true });
    },
  };
}
