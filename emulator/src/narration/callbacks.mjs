/**
 * The narration callback (spec 2.3, 5.4, 6): signing and delivery.
 *
 * Delivery policy (the spec leaves it open; this is the emulator's choice):
 *  - POST JSON with Content-Type application/json; any 2xx answer counts as delivered.
 *  - A non-2xx answer, a network error or a timeout (callbackTimeoutMs) is retried
 *    callbackRetries times, waiting callbackRetryDelayMs, then twice as long each time.
 *  - The URL is the company's most recent callbackURL at the moment of delivery.
 *  - With duplicates (knob or injection) the same payload is POSTed K times, one after another
 *    or all at once; each copy has its own delivery record and retries.
 */
import { createHash, createHmac } from 'node:crypto';

/**
 * @typedef {object} CallbackAttempt
 * @property {string} at
 * @property {number | null} statusCode  null when no HTTP answer arrived
 * @property {string | null} error
 * @property {number} durationMs
 */

/**
 * @typedef {object} CallbackDelivery
 * @property {number} id
 * @property {string} company
 * @property {string} articleId
 * @property {'generation'|'redelivery'|'replay'} reason
 * @property {number} copy     1..copies (duplicated callbacks)
 * @property {number} copies
 * @property {string | null} url
 * @property {import('./articles.mjs').ArticleRecord['lastCallback']} payload
 * @property {'pending'|'delivered'|'failed'} outcome
 * @property {number | null} statusCode  of the last attempt
 * @property {string | null} error       of the last attempt
 * @property {CallbackAttempt[]} attempts
 * @property {string} createdAt
 * @property {string | null} finishedAt
 */

/**
 * Spec 5.4: HMAC-SHA256 over "articleId|audioFile|srtFile" (null written as "null"), keyed by the
 * lowercase hex SHA-256 of the API key used as a text string; lowercase hex output.
 * @param {string} apiKey @param {string} articleId @param {string|null} audioFile @param {string|null} srtFile
 */
export function signCallback(apiKey, articleId, audioFile, srtFile) {
  const key = createHash('sha256').update(apiKey, 'utf8').digest('hex');
  return createHmac('sha256', key)
    .update(`${articleId}|${audioFile ?? 'null'}|${srtFile ?? 'null'}`, 'utf8')
    .digest('hex');
}

/** @param {import('./articles.mjs').ArticleRecord} record */
export function buildCallbackPayload(record) {
  const audioFile = record.result?.audioFile ?? null;
  const srtFile = record.result?.srtFile ?? null;
  return {
    articleId: record.articleId,
    response: { audioFile, srtFile, signature: signCallback(record.apiKey, record.articleId, audioFile, srtFile) },
  };
}

/**
 * @typedef {object} DeliveryContext
 * @property {import('../state.mjs').EmulatorState} state  the state the work started with
 * @property {() => import('../config.mjs').Knobs} knobs
 * @property {(message: string) => void} logError
 */

/**
 * Sends the article's current result to the company's callback URL, honouring the slow and
 * duplicate settings. Resolves true when at least one copy was delivered.
 * @param {DeliveryContext} ctx
 * @param {import('./articles.mjs').ArticleRecord} record
 * @param {'generation'|'redelivery'} reason
 */
export async function deliverCallback(ctx, record, reason) {
  const { state, knobs } = ctx;
  const event = { articleId: record.articleId };
  const slow = state.injections.take('slowCallback', event);
  const duplicate = state.injections.take('duplicateCallback', event);
  const copies = /** @type {number} */ (duplicate?.times ?? knobs().callbackDuplicates);
  const concurrent = /** @type {boolean} */ (duplicate?.concurrent ?? knobs().callbackConcurrentDuplicates);

  const payload = buildCallbackPayload(record);
  record.lastCallback = payload;
  await state.sleep(/** @type {number} */ (slow?.delayMs ?? knobs().callbackDelayMs));

  const url = state.callbackUrls.get(record.company) ?? null;
  const send = (/** @type {number} */ copy) =>
    postWithRetries(ctx, newDelivery(state, record, reason, url, payload, copy, copies), knobs().callbackRetries);
  /** @type {boolean[]} */
  let results;
  if (concurrent) results = await Promise.all(Array.from({ length: copies }, (_, i) => send(i + 1)));
  else {
    results = [];
    for (let copy = 1; copy <= copies; copy++) results.push(await send(copy));
  }
  return results.some(Boolean);
}

/**
 * Re-sends the last payload sent for an article, byte for byte (replay tests), with one attempt.
 * @param {DeliveryContext} ctx
 * @param {import('./articles.mjs').ArticleRecord} record
 * @param {string | undefined} urlOverride
 * @returns {Promise<CallbackDelivery>}
 */
export async function replayCallback(ctx, record, urlOverride) {
  const url = urlOverride ?? ctx.state.callbackUrls.get(record.company) ?? null;
  const delivery = newDelivery(ctx.state, record, 'replay', url, record.lastCallback, 1, 1);
  await postWithRetries(ctx, delivery, 0);
  return delivery;
}

/**
 * @param {import('../state.mjs').EmulatorState} state
 * @param {import('./articles.mjs').ArticleRecord} record
 * @param {CallbackDelivery['reason']} reason
 * @param {string | null} url
 * @param {CallbackDelivery['payload']} payload
 * @param {number} copy @param {number} copies
 * @returns {CallbackDelivery}
 */
function newDelivery(state, record, reason, url, payload, copy, copies) {
  /** @type {CallbackDelivery} */
  const delivery = {
    id: state.callbacks.length + 1,
    company: record.company,
    articleId: record.articleId,
    reason,
    copy,
    copies,
    url,
    payload,
    outcome: 'pending',
    statusCode: null,
    error: null,
    attempts: [],
    createdAt: new Date().toISOString(),
    finishedAt: null,
  };
  state.callbacks.push(delivery);
  return delivery;
}

/**
 * @param {DeliveryContext} ctx @param {CallbackDelivery} delivery @param {number} retries
 * @returns {Promise<boolean>}
 */
async function postWithRetries(ctx, delivery, retries) {
  const { state, knobs } = ctx;
  for (let attempt = 0; attempt <= retries; attempt++) {
    if (attempt > 0) await state.sleep(knobs().callbackRetryDelayMs * 2 ** (attempt - 1));
    state.assertLive();
    const result = await postOnce(delivery.url, delivery.payload, state.signal, knobs().callbackTimeoutMs);
    delivery.attempts.push(result);
    delivery.statusCode = result.statusCode;
    delivery.error = result.error;
    if (result.error === null) {
      delivery.outcome = 'delivered';
      delivery.finishedAt = new Date().toISOString();
      return true;
    }
    ctx.logError(`callback for article ${delivery.articleId} (attempt ${attempt + 1}/${retries + 1}) failed: ${result.error}`);
  }
  delivery.outcome = 'failed';
  delivery.finishedAt = new Date().toISOString();
  return false;
}

/**
 * @param {string | null} url @param {unknown} payload @param {AbortSignal} stateSignal @param {number} timeoutMs
 * @returns {Promise<CallbackAttempt>}
 */
async function postOnce(url, payload, stateSignal, timeoutMs) {
  const startedAt = Date.now();
  const at = new Date(startedAt).toISOString();
  if (!url) return { at, statusCode: null, error: 'no callbackURL stored for the company', durationMs: 0 };
  try {
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'User-Agent': 'speech-service-emulator' },
      body: JSON.stringify(payload),
      redirect: 'manual',
      signal: AbortSignal.any([stateSignal, AbortSignal.timeout(timeoutMs)]),
    });
    await response.arrayBuffer(); // drain so the connection is released
    const ok = response.status >= 200 && response.status < 300;
    return {
      at,
      statusCode: response.status,
      error: ok ? null : `callback host answered ${response.status}`,
      durationMs: Date.now() - startedAt,
    };
  } catch (error) {
    stateSignalCheck(stateSignal);
    const cause = /** @type {any} */ (error)?.cause;
    const message = error instanceof Error ? `${error.message}${cause?.code ? ` (${cause.code})` : ''}` : String(error);
    return { at, statusCode: null, error: message, durationMs: Date.now() - startedAt };
  }
}

/** A reset aborts in-flight callbacks: propagate that instead of recording a failed attempt. @param {AbortSignal} signal */
function stateSignalCheck(signal) {
  if (signal.aborted) throw signal.reason;
}
