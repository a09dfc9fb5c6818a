/**
 * STT jobs: queued -> processing -> completed (or failed, or stuck in processing when injected).
 * The times are knobs (sttQueuedMs, sttProcessingMs); completion also waits for the analysis.
 */
import { randomUUID } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { transcribe } from './transcribe.mjs';

/**
 * @typedef {object} SttJob
 * @property {string} job_id
 * @property {string} company
 * @property {'queued'|'processing'|'completed'|'failed'} status
 * @property {string} language
 * @property {'json'|'srt'} outputFormat
 * @property {{ filename: string | null, bytes: number, sha256: string }} audio
 * @property {import('./transcribe.mjs').TranscriptSource | null} transcriptSource
 * @property {string[]} recognisedAudio  the SHA-256 of each of the emulator's MP3s the upload is or carries, in order
 * @property {{ subtitles: unknown } | null} result
 * @property {{ code: string, message: string } | null} error
 * @property {boolean} stuck  injected: never leaves `processing`
 * @property {string} createdAt
 * @property {string} updatedAt
 */

/**
 * @param {{ state: import('../state.mjs').EmulatorState, knobs: () => import('../config.mjs').Knobs }} ctx
 * @param {string} company
 * @param {import('./upload.mjs').UploadedFile} file
 * @param {{ language: string, outputFormat: 'json'|'srt' }} params
 * @returns {{ job: SttJob, done: Promise<void> }}
 */
export function createSttJob(ctx, company, file, { language, outputFormat }) {
  const { state } = ctx;
  const failure = state.injections.take('sttJobFailure');
  const stuck = Boolean(state.injections.take('sttStuck'));
  const now = new Date().toISOString();
  /** @type {SttJob} */
  const job = {
    job_id: randomUUID(),
    company,
    status: 'queued',
    language,
    outputFormat,
    audio: { filename: file.filename, bytes: file.bytes, sha256: file.sha256 },
    transcriptSource: null,
    recognisedAudio: [],
    result: null,
    error: null,
    stuck,
    createdAt: now,
    updatedAt: now,
  };
  state.sttJobs.set(job.job_id, job);

  // The analysis starts at once; the temporary file goes away as soon as it is done.
  const analysis = transcribe(file, state.media).finally(() => rm(file.path, { force: true }));
  analysis.catch(() => undefined); // handled below; avoid an unhandled rejection while queued
  const done = advance(ctx, job, analysis, failure ? String(failure.message) : null);
  return { job, done };
}

/**
 * @param {{ state: import('../state.mjs').EmulatorState, knobs: () => import('../config.mjs').Knobs }} ctx
 * @param {SttJob} job
 * @param {Promise<import('./transcribe.mjs').Transcript>} analysis
 * @param {string | null} injectedFailure
 */
async function advance({ state, knobs }, job, analysis, injectedFailure) {
  const setStatus = (/** @type {SttJob['status']} */ status) => {
    job.status = status;
    job.updatedAt = new Date().toISOString();
  };
  await state.sleep(knobs().sttQueuedMs);
  setStatus('processing');
  await state.sleep(knobs().sttProcessingMs);
  /** @type {import('./transcribe.mjs').Transcript | null} */
  let transcript = null;
  let analysisError = null;
  try {
    transcript = await analysis;
  } catch (error) {
    analysisError = error instanceof Error ? error.message : String(error);
  }
  state.assertLive();
  if (job.stuck) return;
  if (injectedFailure || !transcript) {
    job.error = { code: 'TRANSCRIPTION_FAILED', message: injectedFailure ?? `The audio could not be read: ${analysisError}` };
    setStatus('failed');
    return;
  }
  job.transcriptSource = transcript.source;
  job.recognisedAudio = transcript.audio;
  job.result = { subtitles: job.outputFormat === 'srt' ? transcript.srt : transcript.segments };
  setStatus('completed');
}

/** The public shape of a job (spec 2.5; `error` is the emulator's addition for failed jobs). @param {SttJob} job */
export function publicJob(job) {
  return {
    job_id: job.job_id,
    status: job.status,
    ...(job.status === 'completed' ? { result: job.result } : {}),
    ...(job.status === 'failed' ? { error: job.error } : {}),
  };
}
