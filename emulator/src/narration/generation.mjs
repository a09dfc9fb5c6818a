/**
 * One narration generation, from "being generated" to generated or failed (spec 3.1), in the
 * background after /process-text answered 202.
 */
import { findVoice } from '../speech/voices.mjs';
import { splitIntoSentences } from '../speech/text.mjs';
import { deliverCallback } from './callbacks.mjs';
import { applySpeechFaults } from './speech-faults.mjs';

/**
 * @typedef {object} GenerationPlan  failure modes decided when the request was accepted
 * @property {boolean} fail     generation fails
 * @property {boolean} noAudio  generation produces no audio
 * @property {Parameters<typeof applySpeechFaults>[1]} faults  what the audio says differently from the text
 */

/**
 * @typedef {{ kind: 'generated', files: { mp3Name: string, srtName: string }, audio: NonNullable<import('./articles.mjs').ArticleRecord['audio']> }
 *   | { kind: 'no-audio', message?: undefined }
 *   | { kind: 'failed', message: string }} GenerationOutcome
 */

/**
 * @typedef {object} GenerationContext
 * @property {import('../state.mjs').EmulatorState} state  the state the generation started in
 * @property {() => import('../config.mjs').Knobs} knobs
 * @property {(name: string) => string} mediaUrl
 * @property {(message: string) => void} logError
 * @property {import('../speech/synthesizer.mjs').SpeechSynthesizer} synthesizer
 */

/**
 * @param {GenerationContext} ctx
 * @param {import('./articles.mjs').ArticleRecord} record  already in state `generating` and charged
 * @param {string} text
 * @param {GenerationPlan} plan
 */
export async function runGeneration(ctx, record, text, plan) {
  const { state, knobs } = ctx;
  const generation = record.generation;
  await state.sleep(knobs().generationDelayMs);

  /** @type {GenerationOutcome} */
  const outcome = plan.fail
    ? { kind: 'failed', message: 'Generation failed (injected by the emulator).' }
    : plan.noAudio
      ? { kind: 'no-audio' }
      : await synthesizeArticle(ctx, record, text, plan.faults);
  state.assertLive();
  record.updatedAt = new Date().toISOString();

  if (outcome.kind === 'generated') {
    record.state = 'generated';
    record.result = { audioFile: ctx.mediaUrl(outcome.files.mp3Name), srtFile: ctx.mediaUrl(outcome.files.srtName) };
    record.audio = outcome.audio;
    state.recordEvent({ type: 'GENERATED', company: record.company, articleId: record.articleId });
  } else {
    record.state = 'failed';
    record.result = { audioFile: null, srtFile: null };
    record.audio = null;
    const type = outcome.kind === 'no-audio' ? 'NO_AUDIO' : 'PROCESSING_ERROR';
    state.recordEvent({ type, company: record.company, articleId: record.articleId, message: outcome.message });
    refundArticle(ctx, record);
  }

  const delivered = await deliverCallback(ctx, record, 'generation');
  // Spec 3.1: "generation or delivery fails -> failed, credits refunded". The stored result is
  // kept so a later request without regenerate re-delivers it.
  if (!delivered && record.state === 'generated' && record.generation === generation) {
    record.state = 'failed';
    record.updatedAt = new Date().toISOString();
    state.recordEvent({ type: 'DELIVERY_FAILED', company: record.company, articleId: record.articleId });
    refundArticle(ctx, record);
  }
}

/**
 * Gives back the credits held for the article's latest generation, unless a refund failure is
 * injected (then the credits stay deducted and a REFUND_FAILED event records it).
 * @param {Pick<GenerationContext, 'state'|'knobs'>} ctx
 * @param {import('./articles.mjs').ArticleRecord} record
 * @param {{ allowInjectedFailure?: boolean }} [options]
 * @returns {boolean} whether the refund happened
 */
export function refundArticle({ state, knobs }, record, { allowInjectedFailure = true } = {}) {
  if (record.creditsCharged === 0) return true;
  const event = { company: record.company, articleId: record.articleId, credits: record.creditsCharged };
  if (allowInjectedFailure && (state.injections.take('refundFailure', { articleId: record.articleId }) || knobs().refundFailure)) {
    state.recordEvent({ type: 'REFUND_FAILED', ...event });
    return false;
  }
  state.credits.refund(record.company, record.creditsCharged);
  record.creditsCharged = 0;
  state.recordEvent({ type: 'CREDITS_REFUNDED', ...event });
  return true;
}

/**
 * Synthesizes the narrated part of the text (the title is not narrated), as altered by injected
 * speech faults. The audio covers at most maxNarratedSentences sentences; the SRT always describes
 * exactly the audio.
 * @param {GenerationContext} ctx @param {import('./articles.mjs').ArticleRecord} record @param {string} text
 * @param {GenerationPlan['faults']} faults
 * @returns {Promise<GenerationOutcome>}
 */
async function synthesizeArticle({ state, knobs, logError, synthesizer }, record, text, faults) {
  const voice = /** @type {import('../speech/voices.mjs').Voice} */ (findVoice(record.voiceId));
  const sentences = splitIntoSentences(text, knobs().maxCueChars);
  const altered = applySpeechFaults(sentences, faults);
  const narrated = altered.sentences.slice(0, knobs().maxNarratedSentences);
  try {
    const speech = await synthesizer.synthesize(narrated, voice.espeakVoice, { gapMs: knobs().sentenceGapMs, signal: state.signal });
    if (!speech.mp3 || !speech.sha256) return { kind: 'no-audio' };
    const files = state.media.publishNarration(
      speech.mp3,
      { cues: speech.cues, durationSec: speech.durationSec, voiceId: voice.id },
      speech.sha256
    );
    const audio = {
      durationSec: speech.durationSec,
      cues: speech.cues.length,
      sentences: sentences.length,
      narratedSentences: narrated.length,
      truncated: narrated.length < altered.sentences.length,
      sha256: speech.sha256,
      injected: altered.applied,
    };
    return { kind: 'generated', files, audio };
  } catch (error) {
    state.assertLive();
    logError(`synthesis failed for article ${record.articleId}: ${error instanceof Error ? error.message : String(error)}`);
    return { kind: 'failed', message: 'Speech synthesis failed.' };
  }
}
