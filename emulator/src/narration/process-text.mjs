/** POST /process-text (spec 4.1): validation, the state table of 3.1, credits, then 202. */
import { ApiError, errors, creditHeaders } from '../http/errors.mjs';
import { readJsonBody, BodyError } from '../http/body.mjs';
import { sendJson } from '../http/respond.mjs';
import { findVoice } from '../speech/voices.mjs';
import { countCharacters } from '../speech/text.mjs';
import { backgroundErrorHandler } from '../state.mjs';
import { validateNarrationRequest } from './validate.mjs';
import { articleKey, decideNarration } from './articles.mjs';
import { runGeneration, refundArticle } from './generation.mjs';
import { deliverCallback } from './callbacks.mjs';

export const ACCEPTED_MESSAGE = 'Processing started; the result will be POSTed to the callback URL.';

/** @param {import('../http/router.mjs').RequestContext} ctx */
export async function processText(ctx) {
  const { runtime, principal } = ctx;
  const { state, knobs } = runtime;
  const { company } = /** @type {import('../auth.mjs').Principal} */ (principal);

  const body = await readBody(ctx, knobs.maxTextLength);
  const validation = validateNarrationRequest(body, knobs);
  if (!validation.ok) throw new ApiError(422, 'VALIDATION_ERROR', 'The request is invalid.', { details: validation.details });
  const request = validation.value;
  if (!findVoice(request.voiceId)) {
    throw new ApiError(400, 'INVALID_VOICE_ID', `Voice "${request.voiceId}" does not exist.`, { details: { voiceId: request.voiceId } });
  }
  // Spec 5.3: a key may be restricted from a voice (403 FORBIDDEN), here before anything is charged.
  if (/** @type {import('../auth.mjs').Principal} */ (principal).restrictedVoices.has(request.voiceId)) {
    throw new ApiError(403, 'FORBIDDEN', `This API key cannot use voice "${request.voiceId}".`);
  }
  // The most recent valid request decides where this company's callbacks go (read at delivery time).
  state.callbackUrls.set(company, request.callbackURL);

  let record = state.articles.get(articleKey(company, request.articleId));
  const action = decideNarration(record, request.regenerate);
  if (action === 'reject-busy') {
    throw new ApiError(409, 'ALREADY_PROCESSING', `Article "${request.articleId}" is being generated; retry after completion.`);
  }
  if (action === 'redeliver') {
    const existing = /** @type {import('./articles.mjs').ArticleRecord} */ (record);
    deliverCallback(runtime.backgroundContext(), existing, 'redelivery').catch(backgroundErrorHandler(runtime.logError));
    return accepted(ctx, state.credits.balance(company), 0);
  }

  const cost = countCharacters(request.text) * (request.preprocessType === '2' ? 2 : 1);
  if (!state.credits.charge(company, cost)) {
    throw errors.insufficientCredits({ creditsRemaining: state.credits.balance(company), creditsRequired: cost });
  }
  const now = new Date().toISOString();
  const generation = {
    apiKey: /** @type {import('../auth.mjs').Principal} */ (principal).apiKey,
    state: /** @type {const} */ ('generating'),
    generation: (record?.generation ?? 0) + 1,
    name: request.name,
    voiceId: request.voiceId,
    preprocessType: request.preprocessType,
    characters: countCharacters(request.text),
    creditsCharged: cost,
    updatedAt: now,
  };
  // Updated in place: background work of an earlier generation holds the same object and
  // notices (by `generation`) that it has been superseded.
  if (record) Object.assign(record, generation);
  else {
    record = { company, articleId: request.articleId, result: null, audio: null, lastCallback: null, createdAt: now, ...generation };
    state.articles.set(articleKey(company, request.articleId), record);
  }
  state.recordEvent({ type: 'CREDITS_CHARGED', company, articleId: request.articleId, credits: cost });

  failSynchronouslyIfInjected(runtime, record);

  const event = { articleId: request.articleId };
  const dropSentence = state.injections.take('dropSentence', event);
  const replaceWord = state.injections.take('replaceWord', event);
  /** @type {import('./generation.mjs').GenerationPlan} */
  const plan = {
    fail: Boolean(state.injections.take('generationFailure', event)) || knobs.generationFailure,
    noAudio: Boolean(state.injections.take('noAudio', event)) || knobs.noAudio,
    faults: {
      dropSentence: dropSentence && { sentence: /** @type {number} */ (dropSentence.sentence) },
      replaceWord: replaceWord && { word: /** @type {string} */ (replaceWord.word), with: /** @type {string} */ (replaceWord.with) },
    },
  };
  runGeneration(runtime.backgroundContext(), record, request.text, plan).catch(backgroundErrorHandler(runtime.logError));
  const lost = state.injections.take('lostAnswer', event);
  if (lost) {
    // Charged and generating, but the client never learns it: the case a client must not pay twice for.
    const holdMs = /** @type {number} */ (lost.holdMs);
    state.recordEvent({ type: 'ANSWER_LOST', company, articleId: request.articleId, holdMs });
    await state.sleep(holdMs);
    ctx.res.socket?.destroy();
    return undefined;
  }
  return accepted(ctx, state.credits.balance(company), cost);
}

/**
 * The spec lists PROCESSING_ERROR and REFUND_FAILED (422) among the answers of /process-text:
 * injections make the request fail at once, after the charge, with or without the refund.
 * @param {import('../server.mjs').Runtime} runtime
 * @param {import('./articles.mjs').ArticleRecord} record
 */
function failSynchronouslyIfInjected(runtime, record) {
  const { state } = runtime;
  const event = { articleId: record.articleId };
  const processingError = state.injections.take('syncProcessingError', event);
  const refundFailed = !processingError && state.injections.take('syncRefundFailed', event);
  if (!processingError && !refundFailed) return;

  record.state = 'failed';
  record.result = { audioFile: null, srtFile: null };
  state.recordEvent({ type: 'PROCESSING_ERROR', company: record.company, articleId: record.articleId, message: 'injected' });
  const headers = () => creditHeaders(state.credits.balance(record.company), record.creditsCharged);
  if (processingError) {
    refundArticle(runtime.backgroundContext(), record, { allowInjectedFailure: false });
    throw new ApiError(422, 'PROCESSING_ERROR', 'Generation failed; deducted credits were refunded.', { headers: headers() });
  }
  state.recordEvent({ type: 'REFUND_FAILED', company: record.company, articleId: record.articleId, credits: record.creditsCharged });
  throw new ApiError(422, 'REFUND_FAILED', 'Processing failed and the automatic refund did not complete.', { headers: headers() });
}

/**
 * @param {import('../http/router.mjs').RequestContext} ctx @param {number} limitChars
 */
async function readBody(ctx, limitChars) {
  try {
    // JSON may spell one code point as a 12-byte surrogate-pair escape; allow for that plus metadata.
    const body = await readJsonBody(ctx.req, limitChars * 12 + 64 * 1024);
    ctx.log.body = body;
    return body;
  } catch (error) {
    if (!(error instanceof BodyError)) throw error;
    const field = error.reason === 'too-large' ? 'text' : 'body';
    throw new ApiError(422, 'VALIDATION_ERROR', error.message, { details: { [field]: [error.message] } });
  }
}

/**
 * @param {import('../http/router.mjs').RequestContext} ctx @param {number} remaining @param {number} used
 */
function accepted(ctx, remaining, used) {
  sendJson(ctx.res, 202, { success: true, message: ACCEPTED_MESSAGE }, creditHeaders(remaining, used));
}
