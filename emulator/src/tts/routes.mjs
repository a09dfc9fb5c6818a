/**
 * Speech generation (spec 4.4) and the emulator's own voice list (the spec does not show one).
 * TTS uses the general error model of section 7 for every failure.
 */
import { ApiError, errors, creditHeaders } from '../http/errors.mjs';
import { readJsonBody, BodyError } from '../http/body.mjs';
import { sendJson, sendBytes } from '../http/respond.mjs';
import { VOICES, findVoice, publicVoice, VOICE_ID_PATTERN } from '../speech/voices.mjs';
import { countCharacters, splitIntoSentences } from '../speech/text.mjs';
import { MEDIA_TYPES } from '../speech/media.mjs';

/** GET /api/v1/voices @param {import('../http/router.mjs').RequestContext} ctx */
export async function listVoices(ctx) {
  sendJson(ctx.res, 200, { voices: VOICES.map(publicVoice) });
}

/** POST /api/v1/tts/generate @param {import('../http/router.mjs').RequestContext} ctx */
export async function generateSpeech(ctx) {
  const { runtime } = ctx;
  const { state } = runtime;
  const principal = /** @type {import('../auth.mjs').Principal} */ (ctx.principal);
  const { company } = principal;

  // Spec 7.3: one request per user at a time.
  if (state.ttsInFlight.has(company)) {
    throw new ApiError(409, 'CONCURRENT_REQUEST', 'Another request from this account is in progress; one request per user at a time.');
  }
  state.ttsInFlight.add(company);
  try {
    await generateForCompany(ctx, principal);
  } finally {
    state.ttsInFlight.delete(company);
  }
}

/**
 * @param {import('../http/router.mjs').RequestContext} ctx
 * @param {import('../auth.mjs').Principal} principal
 */
async function generateForCompany(ctx, principal) {
  const { runtime } = ctx;
  const { state, knobs } = runtime;
  const { text, voiceId } = await readValidRequest(ctx, knobs.ttsMaxTextLength);
  const voice = findVoice(voiceId);
  if (!voice) throw errors.notFound(`Voice "${voiceId}" was not found.`, { voice_id: voiceId });
  if (principal.restrictedVoices.has(voiceId)) throw new ApiError(403, 'FORBIDDEN', `This API key cannot use voice "${voiceId}".`);

  const cost = countCharacters(text);
  if (!state.credits.charge(principal.company, cost)) {
    throw errors.insufficientCredits({ creditsRemaining: state.credits.balance(principal.company), creditsRequired: cost });
  }
  state.recordEvent({ type: 'CREDITS_CHARGED', company: principal.company, credits: cost, message: 'tts' });
  try {
    if (knobs.ttsDelayMs) await state.sleep(knobs.ttsDelayMs);
    const speech = await runtime.synthesizer.synthesize(splitIntoSentences(text, knobs.maxCueChars), voice.espeakVoice, {
      gapMs: knobs.sentenceGapMs,
      signal: state.signal,
    });
    if (!speech.mp3 || !speech.sha256) throw new Error('no audio produced');
    state.media.registerAudio(speech.mp3, { cues: speech.cues, durationSec: speech.durationSec, source: 'tts', voiceId }, speech.sha256);
    sendBytes(ctx.res, 200, speech.mp3, {
      'Content-Type': MEDIA_TYPES.mp3,
      ...creditHeaders(state.credits.balance(principal.company), cost),
    });
  } catch (error) {
    // Credits are only kept for audio actually delivered.
    state.credits.refund(principal.company, cost);
    state.recordEvent({ type: 'CREDITS_REFUNDED', company: principal.company, credits: cost, message: 'tts' });
    runtime.logError(`tts synthesis failed: ${error instanceof Error ? error.message : String(error)}`);
    throw errors.internal();
  }
}

/**
 * @param {import('../http/router.mjs').RequestContext} ctx @param {number} maxChars
 * @returns {Promise<{ text: string, voiceId: string }>}
 */
async function readValidRequest(ctx, maxChars) {
  let body;
  try {
    body = await readJsonBody(ctx.req, maxChars * 12 + 64 * 1024);
  } catch (error) {
    if (!(error instanceof BodyError)) throw error;
    throw new ApiError(400, 'INVALID_REQUEST', error.message, {
      details: { [error.reason === 'too-large' ? 'text' : 'body']: [error.message] },
    });
  }
  ctx.log.body = body;
  /** @type {Record<string, string[]>} */
  const details = {};
  const problem = (/** @type {string} */ field, /** @type {string} */ message) => (details[field] ??= []).push(message);
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new ApiError(400, 'INVALID_REQUEST', 'The request is invalid.', { details: { body: ['Request body must be a JSON object.'] } });
  }
  const { text, voice_id: voiceId } = /** @type {Record<string, unknown>} */ (body);
  if (text === undefined || text === null) problem('text', 'text is required.');
  else if (typeof text !== 'string') problem('text', 'text must be a string.');
  else if (!text.trim()) problem('text', 'text must not be empty.');
  else if (countCharacters(text) > maxChars) problem('text', `text exceeds the maximum length of ${maxChars} characters.`);
  if (voiceId === undefined || voiceId === null) problem('voice_id', 'voice_id is required.');
  else if (typeof voiceId !== 'string') problem('voice_id', 'voice_id must be a string.');
  else if (!VOICE_ID_PATTERN.test(voiceId)) problem('voice_id', 'voice_id has an invalid format (expected e.g. "en-female-1").');
  if (Object.keys(details).length) throw new ApiError(400, 'INVALID_REQUEST', 'The request is invalid.', { details });
  return { text: /** @type {string} */ (text), voiceId: /** @type {string} */ (voiceId) };
}
