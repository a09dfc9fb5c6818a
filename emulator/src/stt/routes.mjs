/** STT endpoints (spec 4.2, 4.3). Their error answers use the general error model (section 7). */
import { rm } from 'node:fs/promises';
import { ApiError, creditHeaders, errors } from '../http/errors.mjs';
import { sendJson } from '../http/respond.mjs';
import { backgroundErrorHandler } from '../state.mjs';
import { receiveUpload, drainRequest, MultipartError } from './upload.mjs';
import { createSttJob, publicJob } from './jobs.mjs';

const OUTPUT_FORMATS = ['json', 'srt'];
const LANGUAGE_PATTERN = /^[A-Za-z]{2,3}([-_][A-Za-z0-9]{2,8})*$/;

/** @param {Record<string, string[]>} details @param {string} [message] */
const invalid = (details, message = 'The request is invalid.') => new ApiError(400, 'INVALID_REQUEST', message, { details });

/** POST /api/v1/stt/submit/ @param {import('../http/router.mjs').RequestContext} ctx */
export async function submitStt(ctx) {
  const { req, runtime } = ctx;
  const { knobs, state } = runtime;
  let upload;
  try {
    upload = await receiveUpload(req, { maxFileBytes: knobs.sttMaxUploadBytes, tmpDir: runtime.tmpDir });
  } catch (error) {
    if (!(error instanceof MultipartError)) throw error;
    await drainRequest(req, knobs.sttMaxUploadBytes * 2);
    if (error.reason === 'not-multipart') throw invalid({ audio: ['Send a multipart/form-data upload with an "audio" file field.'] });
    throw invalid({ body: [error.message] }, 'Malformed multipart upload.');
  }
  ctx.log.body = {
    fields: upload.fields,
    files: upload.file
      ? [
          {
            field: 'audio',
            filename: upload.file.filename,
            contentType: upload.file.contentType,
            bytes: upload.file.bytes,
            sha256: upload.file.sha256,
          },
        ]
      : [],
    audioBytesSeen: upload.bytesSeen,
    tooLarge: upload.tooLarge,
    ignoredParts: upload.ignoredParts,
  };

  if (upload.tooLarge) {
    const mb = Math.round(knobs.sttMaxUploadBytes / (1024 * 1024));
    throw new ApiError(413, 'INVALID_REQUEST', `Audio file exceeds the ${mb} MB limit.`, { details: { audio: [`File exceeds ${mb} MB`] } });
  }
  const file = upload.file;
  const language = upload.fields.language ?? 'ar-JO';
  const outputFormat = upload.fields.output_format ?? 'json';
  /** @type {Record<string, string[]>} */
  const details = {};
  if (!file) details.audio = ['An "audio" file is required.'];
  else if (file.bytes === 0) details.audio = ['The audio file is empty.'];
  if (!OUTPUT_FORMATS.includes(outputFormat)) details.output_format = [`output_format must be one of: ${OUTPUT_FORMATS.join(', ')}.`];
  if (!LANGUAGE_PATTERN.test(language)) details.language = ['language must be a language code such as ar-JO.'];
  if (Object.keys(details).length) {
    if (file) await rm(file.path, { force: true });
    throw invalid(details);
  }

  const company = /** @type {import('../auth.mjs').Principal} */ (ctx.principal).company;
  const cost = knobs.sttCreditsPerJob;
  if (cost > 0) {
    if (!state.credits.charge(company, cost)) {
      await rm(/** @type {import('./upload.mjs').UploadedFile} */ (file).path, { force: true });
      throw errors.insufficientCredits({ creditsRemaining: state.credits.balance(company), creditsRequired: cost });
    }
    state.recordEvent({ type: 'CREDITS_CHARGED', company, credits: cost, message: 'stt' });
  }
  const { job, done } = createSttJob(runtime.backgroundContext(), company, /** @type {import('./upload.mjs').UploadedFile} */ (file), {
    language,
    outputFormat: /** @type {'json'|'srt'} */ (outputFormat),
  });
  done.catch(backgroundErrorHandler(runtime.logError));
  sendJson(ctx.res, 200, { job_id: job.job_id, status: job.status }, cost > 0 ? creditHeaders(state.credits.balance(company), cost) : {});
}

/** GET /api/v1/stt/status/{job_id}/ @param {import('../http/router.mjs').RequestContext} ctx */
export async function sttStatus(ctx) {
  const job = ctx.runtime.state.sttJobs.get(ctx.params.jobId);
  // Another company's job is as invisible as a job that does not exist.
  if (!job || job.company !== /** @type {import('../auth.mjs').Principal} */ (ctx.principal).company) {
    throw new ApiError(404, 'NOT_FOUND', `STT job "${ctx.params.jobId}" does not exist.`, { details: { job_id: ctx.params.jobId } });
  }
  sendJson(ctx.res, 200, publicJob(job));
}
