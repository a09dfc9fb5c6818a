import type { Core } from '@strapi/strapi';
import { z } from 'zod';
import { SubmissionError, type TranscriptionService } from '../services/transcription';
import { DOWNLOAD_FORMATS, attachmentDisposition, transcriptView, type DownloadFormat } from '../transcription/formats';
import { errorAnswer, sendAnswer, sendServiceError } from './speech-service-errors';
import type { TranscriptionRow } from '../transcription/repository';
import { DEFAULT_LANGUAGE, MAX_AUDIO_BYTES } from '../transcription/settings';
import { tooLargeAnswer } from '../transcription/upload-guard';
import { removeTemporaryFiles } from '../http/body-guard';

/** The Transcribe page's routes: submit an upload, follow jobs, download and save results. */

const service = (strapi: Core.Strapi) => strapi.plugin('speech').service('transcription') as TranscriptionService;

const submitFields = z.object({
  language: z
    .string()
    .trim()
    .regex(/^[A-Za-z]{2,8}(-[A-Za-z0-9]{1,8})*$/, 'must be a language code such as ar-JO')
    .max(35)
    .default(DEFAULT_LANGUAGE),
  output_format: z.preprocess((value) => (typeof value === 'string' ? value.trim().toLowerCase() : value), z.enum(['json', 'srt']).default('json')),
});
const listQuery = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(20),
  mine: z.enum(['true', 'false', '1', '0']).optional(),
});
const idParam = z.coerce.number().int().positive();
const formatSchema = z.enum(DOWNLOAD_FORMATS as [DownloadFormat, ...DownloadFormat[]]);

/** What the admin sees of a row; never lease data. The result only when asked (`withResult`). */
export function transcriptionView(row: TranscriptionRow, withResult = false) {
  const view = {
    id: row.id,
    documentId: row.documentId,
    fileName: row.fileName,
    fileSize: row.fileSize,
    mimeType: row.mimeType,
    language: row.language,
    outputFormat: row.outputFormat,
    status: row.status,
    serviceStatus: row.serviceStatus,
    jobId: row.jobId,
    submittedBy: row.submittedById !== null || row.submittedByName ? { id: row.submittedById, name: row.submittedByName } : null,
    error: row.error,
    errorCode: row.errorCode,
    /** A transient problem while following the job (it is retried); null when the last poll went well. */
    pollWarning: row.lastPollError,
    nextPollAt: row.nextPollAt,
    createdAt: row.createdAt,
    submittedAt: row.submittedAt,
    completedAt: row.completedAt,
    updatedAt: row.updatedAt,
    hasResult: row.status === 'completed' && Boolean(row.result),
    savedFile: row.savedFile ? { id: row.savedFile.id, name: row.savedFile.name ?? null, url: row.savedFile.url, mime: row.savedFile.mime ?? null } : null,
  };
  if (!withResult) return view;
  return { ...view, result: view.hasResult ? transcriptView(row.result?.subtitles) : null };
}

function validationError(ctx: any, message: string, details: Record<string, unknown> = {}) {
  sendAnswer(ctx, errorAnswer(400, 'ValidationError', message, details));
}

function notFound(ctx: any) {
  sendAnswer(ctx, errorAnswer(404, 'NotFoundError', 'This transcription does not exist.'));
}

interface UploadedFile {
  filepath: string;
  originalFilename?: string | null;
  newFilename?: string;
  mimetype?: string | null;
  size: number;
}

function firstValue(value: unknown): unknown {
  return Array.isArray(value) ? value[0] : value;
}

function adminUser(ctx: any): { id: number | null; name: string | null } {
  const user = ctx.state?.user;
  if (!user) return { id: null, name: null };
  const fullName = [user.firstname, user.lastname].filter(Boolean).join(' ').trim();
  return { id: typeof user.id === 'number' ? user.id : Number(user.id) || null, name: user.username || fullName || user.email || null };
}

export default ({ strapi }: { strapi: Core.Strapi }) => ({
  /** POST /speech/transcriptions (multipart: audio, language, output_format) */
  async submit(ctx: any) {
    const abort = new AbortController();
    // The editor closed the page or lost the connection: stop sending to the service.
    const onClose = () => {
      if (!ctx.res.writableEnded) abort.abort();
    };
    ctx.res.once('close', onClose);
    try {
      if (!ctx.is('multipart')) {
        return validationError(ctx, 'Send the audio as multipart/form-data with an "audio" file field.', { field: 'audio' });
      }
      const files = ctx.request.files as Record<string, UploadedFile | UploadedFile[]> | undefined;
      const audioField = files?.audio;
      const audios = Array.isArray(audioField) ? audioField : audioField ? [audioField] : [];
      if (audios.length === 0) return validationError(ctx, 'Choose an audio file to transcribe (form field "audio").', { field: 'audio' });
      if (audios.length > 1) return validationError(ctx, 'Send one audio file at a time.', { field: 'audio' });
      const audio = audios[0];
      if (audio.size > MAX_AUDIO_BYTES) return sendAnswer(ctx, tooLargeAnswer(audio.size));
      if (audio.size === 0) return validationError(ctx, 'The audio file is empty.', { field: 'audio' });

      const body = (ctx.request.body ?? {}) as Record<string, unknown>;
      const parsed = submitFields.safeParse({
        language: firstValue(body.language) || undefined,
        output_format: firstValue(body.output_format ?? body.outputFormat) || undefined,
      });
      if (!parsed.success) {
        const fieldErrors = parsed.error.flatten().fieldErrors;
        const message = fieldErrors.output_format
          ? 'The output format must be json or srt.'
          : `The language must be a language code such as ar-JO.`;
        return validationError(ctx, message, { errors: fieldErrors });
      }

      const row = await service(strapi).submit({
        filepath: audio.filepath,
        // Made safe by the service (safeFileName); an upload without a name gets `recording.mp3`.
        fileName: audio.originalFilename ?? '',
        size: audio.size,
        mimeType: audio.mimetype ?? null,
        language: parsed.data.language,
        outputFormat: parsed.data.output_format,
        user: adminUser(ctx),
        signal: abort.signal,
      });
      ctx.status = 201;
      ctx.body = { data: transcriptionView(row) };
    } catch (error) {
      if (error instanceof SubmissionError) return sendServiceError(ctx, error.cause, { transcriptionId: error.transcriptionId });
      return sendServiceError(ctx, error);
    } finally {
      ctx.res.off('close', onClose);
      // At once, not only in the body guard's finally: the 50 MB file need not wait for the response.
      await removeTemporaryFiles(ctx);
    }
  },

  /** GET /speech/transcriptions?limit=20&mine=true: newest first, without results. */
  async list(ctx: any) {
    const parsed = listQuery.safeParse(ctx.query ?? {});
    if (!parsed.success) return validationError(ctx, 'limit must be a whole number from 1 to 100.', { errors: parsed.error.flatten().fieldErrors });
    const mine = parsed.data.mine === 'true' || parsed.data.mine === '1';
    const user = adminUser(ctx);
    const rows = await service(strapi).list({ limit: parsed.data.limit, submittedById: mine && user.id !== null ? user.id : undefined });
    ctx.body = { data: rows.map((row) => transcriptionView(row)), meta: { limit: parsed.data.limit, pollIntervalMs: service(strapi).settings.pollMs } };
  },

  /** GET /speech/transcriptions/:id: status, and the result once completed. */
  async findOne(ctx: any) {
    const id = idParam.safeParse(ctx.params.id);
    if (!id.success) return notFound(ctx);
    const row = await service(strapi).find(id.data);
    if (!row) return notFound(ctx);
    ctx.body = { data: transcriptionView(row, true) };
  },

  /** GET /speech/transcriptions/:id/download?format=srt|vtt|json (default: the format asked of the service). */
  async download(ctx: any) {
    const id = idParam.safeParse(ctx.params.id);
    if (!id.success) return notFound(ctx);
    const row = await service(strapi).find(id.data);
    if (!row) return notFound(ctx);
    const format = formatSchema.safeParse(ctx.query.format ?? row.outputFormat);
    if (!format.success) return validationError(ctx, 'format must be srt, vtt or json.', { field: 'format' });
    const rendered = service(strapi).render(row, format.data);
    if (!rendered) {
      return sendAnswer(ctx, errorAnswer(409, 'ConflictError', `This transcription has no result (it is ${row.status}).`, { status: row.status }));
    }
    ctx.set('Content-Disposition', attachmentDisposition(rendered.fileName));
    ctx.set('Cache-Control', 'private, no-store');
    ctx.type = rendered.contentType;
    ctx.body = rendered.body;
  },

  /** POST /speech/transcriptions/:id/save { format? }: the result as a Media Library file. */
  async save(ctx: any) {
    const id = idParam.safeParse(ctx.params.id);
    if (!id.success) return notFound(ctx);
    const row = await service(strapi).find(id.data);
    if (!row) return notFound(ctx);
    const requested = (ctx.request.body as Record<string, unknown> | undefined)?.format ?? row.outputFormat;
    const format = formatSchema.safeParse(requested);
    if (!format.success) return validationError(ctx, 'format must be srt, vtt or json.', { field: 'format' });
    const saved = await service(strapi).saveToMediaLibrary(row, format.data);
    if (!saved) {
      return sendAnswer(ctx, errorAnswer(409, 'ConflictError', `This transcription has no result to save (it is ${row.status}).`, { status: row.status }));
    }
    const fresh = (await service(strapi).find(row.id)) as TranscriptionRow;
    ctx.status = saved.created ? 201 : 200;
    ctx.body = {
      data: transcriptionView(fresh),
      file: { id: saved.file.id, name: saved.file.name ?? null, url: saved.file.url, mime: saved.file.mime ?? null, size: saved.file.size ?? null },
      created: saved.created,
    };
  },
});
