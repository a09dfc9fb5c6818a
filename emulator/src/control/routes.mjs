/**
 * The control API under /__control/ — no auth, for tests and demos only. It never shows an API
 * key: companies are named by key fingerprints (see auth.mjs) and keys may only be *sent* here
 * (to pick a company), never read back.
 */
import { ApiError } from '../http/errors.mjs';
import { readJsonBody, BodyError } from '../http/body.mjs';
import { sendJson } from '../http/respond.mjs';
import { companyOf } from '../auth.mjs';
import { ConfigError } from '../config.mjs';
import { InjectionError } from '../injections.mjs';
import { publicArticle } from '../narration/articles.mjs';
import { replayCallback } from '../narration/callbacks.mjs';

const KEY_KNOBS = ['apiKeys', 'revokedKeys', 'restrictedKeys'];

/** @param {string} message */
const badRequest = (message) => new ApiError(400, 'INVALID_REQUEST', message);

/**
 * Optional JSON body: an empty body reads as {}.
 * @param {import('../http/router.mjs').RequestContext} ctx @returns {Promise<Record<string, any>>}
 */
async function readControlBody(ctx) {
  const length = Number(ctx.req.headers['content-length'] ?? 0);
  if (!ctx.req.headers['content-type'] && !length && !ctx.req.headers['transfer-encoding']) return {};
  try {
    const body = await readJsonBody(ctx.req, 1024 * 1024);
    if (typeof body !== 'object' || body === null || Array.isArray(body)) throw badRequest('Expected a JSON object.');
    return /** @type {Record<string, any>} */ (body);
  } catch (error) {
    if (error instanceof BodyError) throw badRequest(error.message);
    throw error;
  }
}

/**
 * Which company a control request means: `apiKey` or `company` (query or body), else the first
 * configured key's company — the usual single-key case.
 * @param {import('../server.mjs').Runtime} runtime @param {Record<string, unknown>} source
 */
function selectCompany(runtime, source) {
  if (typeof source.apiKey === 'string' && source.apiKey) return companyOf(source.apiKey);
  if (typeof source.company === 'string' && source.company) return source.company;
  return companyOf(runtime.knobs.apiKeys[0] ?? '');
}

/** @param {import('../server.mjs').Runtime} runtime */
function describeConfig(runtime) {
  const knobs = Object.fromEntries(Object.entries(runtime.knobs).filter(([name]) => !KEY_KNOBS.includes(name)));
  return {
    config: knobs,
    keys: runtime.keys.describe(),
    server: { url: runtime.baseUrl, webUrl: runtime.webUrl, sharedPort: runtime.sharedPort },
  };
}

/** @param {import('../http/router.mjs').RequestContext} ctx */
const query = (ctx) => Object.fromEntries(ctx.url.searchParams);

/**
 * @param {string} method @param {string} path
 * @param {(ctx: import('../http/router.mjs').RequestContext) => Promise<void>} handler
 * @returns {import('../http/router.mjs').Route}
 */
const route = (method, path, handler) => ({ name: 'control', method, path, listener: 'both', auth: null, rateLimited: false, handler });

/** @type {import('../http/router.mjs').Route[]} */
export const CONTROL_ROUTES = [
  route('GET', '/__control/health', async (ctx) => sendJson(ctx.res, 200, { ok: true })),

  route('GET', '/__control/requests', async (ctx) => {
    const { path, route: routeName, method } = query(ctx);
    const requests = ctx.runtime.state.requests
      .list()
      .filter((r) => (!path || r.path === path) && (!routeName || r.route === routeName) && (!method || r.method === method.toUpperCase()));
    sendJson(ctx.res, 200, { requests });
  }),
  route('DELETE', '/__control/requests', async (ctx) => {
    const cleared = ctx.runtime.state.requests.list().length;
    ctx.runtime.state.requests.clear();
    sendJson(ctx.res, 200, { cleared });
  }),

  route('POST', '/__control/reset', async (ctx) => {
    const body = await readControlBody(ctx);
    ctx.runtime.reset({ keepConfig: body.keepConfig === true });
    sendJson(ctx.res, 200, { reset: true, ...describeConfig(ctx.runtime) });
  }),

  route('GET', '/__control/config', async (ctx) => sendJson(ctx.res, 200, describeConfig(ctx.runtime))),
  route('PUT', '/__control/config', async (ctx) => {
    const body = await readControlBody(ctx);
    try {
      ctx.runtime.updateKnobs(body);
    } catch (error) {
      if (error instanceof ConfigError) throw badRequest(error.message);
      throw error;
    }
    sendJson(ctx.res, 200, describeConfig(ctx.runtime));
  }),

  route('POST', '/__control/inject', async (ctx) => {
    const body = await readControlBody(ctx);
    try {
      sendJson(ctx.res, 201, { injection: ctx.runtime.state.injections.add(body) });
    } catch (error) {
      if (error instanceof InjectionError) throw badRequest(error.message);
      throw error;
    }
  }),
  route('GET', '/__control/inject', async (ctx) => sendJson(ctx.res, 200, { injections: ctx.runtime.state.injections.list() })),
  route('DELETE', '/__control/inject', async (ctx) => {
    ctx.runtime.state.injections.clear();
    sendJson(ctx.res, 200, { injections: [] });
  }),

  route('GET', '/__control/credits', async (ctx) => {
    const { credits } = ctx.runtime.state;
    const company = selectCompany(ctx.runtime, query(ctx));
    sendJson(ctx.res, 200, {
      company,
      credits: credits.balance(company),
      companies: credits.snapshot(),
      startingCredits: ctx.runtime.knobs.startingCredits,
    });
  }),
  route('PUT', '/__control/credits', async (ctx) => {
    const body = await readControlBody(ctx);
    if (!Number.isInteger(body.credits) || body.credits < 0) throw badRequest('credits must be an integer >= 0');
    const { credits } = ctx.runtime.state;
    if (body.apiKey || body.company) {
      const company = selectCompany(ctx.runtime, body);
      credits.set(company, body.credits);
    } else {
      // No target: every company, including those not seen yet.
      ctx.runtime.updateKnobs({ startingCredits: body.credits });
      credits.setAll(body.credits);
      credits.set(selectCompany(ctx.runtime, {}), body.credits);
    }
    sendJson(ctx.res, 200, { companies: credits.snapshot(), startingCredits: ctx.runtime.knobs.startingCredits });
  }),

  route('GET', '/__control/articles', async (ctx) => {
    const { articleId } = query(ctx);
    const articles = [...ctx.runtime.state.articles.values()].filter((a) => !articleId || a.articleId === articleId).map(publicArticle);
    sendJson(ctx.res, 200, { articles });
  }),
  route('POST', '/__control/articles/:articleId/redeliver', async (ctx) => {
    const body = await readControlBody(ctx);
    const { state } = ctx.runtime;
    const candidates = [...state.articles.values()]
      .filter(
        (a) => a.articleId === ctx.params.articleId && (!(body.apiKey || body.company) || a.company === selectCompany(ctx.runtime, body))
      )
      .sort((a, b) => b.updatedAt.localeCompare(a.updatedAt));
    const record = candidates[0];
    if (!record) throw new ApiError(404, 'NOT_FOUND', `No article "${ctx.params.articleId}".`);
    if (!record.lastCallback) throw new ApiError(409, 'NO_CALLBACK_YET', `No callback has been sent for "${ctx.params.articleId}" yet.`);
    if (body.url !== undefined && typeof body.url !== 'string') throw badRequest('url must be a string');
    const delivery = await replayCallback(ctx.runtime.backgroundContext(), record, body.url);
    sendJson(ctx.res, 200, { delivery });
  }),

  route('GET', '/__control/callbacks', async (ctx) => {
    const { articleId } = query(ctx);
    sendJson(ctx.res, 200, { callbacks: ctx.runtime.state.callbacks.filter((c) => !articleId || c.articleId === articleId) });
  }),
  route('GET', '/__control/events', async (ctx) => {
    const { articleId, type } = query(ctx);
    sendJson(ctx.res, 200, {
      events: ctx.runtime.state.events.filter((e) => (!articleId || e.articleId === articleId) && (!type || e.type === type)),
    });
  }),
  // ?sha256= finds the jobs that transcribed one MP3 (an article's audio.sha256): uploaded as it is, or its frames carried by another file.
  route('GET', '/__control/stt-jobs', async (ctx) => {
    const { sha256 } = query(ctx);
    const wanted = sha256?.toLowerCase();
    const jobs = [...ctx.runtime.state.sttJobs.values()].filter(
      (j) => !wanted || j.audio.sha256 === wanted || j.recognisedAudio.includes(wanted)
    );
    sendJson(ctx.res, 200, { jobs });
  }),
];
