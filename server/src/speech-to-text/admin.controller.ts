import type { Context } from 'koa';
import { errors } from '@strapi/utils';
import { z } from 'zod';
import { removeTemporaryFiles } from './body-guard';
import { rethrowForAdmin } from '../http/speech-service-errors';
import { conflict } from '../http/status-error';
import { SubmissionError } from './service';
import type { TranscriptionRow } from './repository';
import { attachmentDisposition } from './result-file';
import { DEFAULT_LANGUAGE, MAX_AUDIO_BYTES } from './settings';
import { audioTooLargeError } from './upload-guard';
import { DOWNLOAD_FORMATS, transcriptView, type DownloadFormat } from '../subtitles/transcript';
import { getService } from '../utils';

/** The Transcribe page's routes: submit an upload, follow jobs, download and save results. */

const submitFields = z.object({
  language: z
    .string()
    .trim()
    .regex(/^[A-Za-z]{2,8}(-[A-Za-z0-9]{1,8})*$/, 'must be a language code such as ar-JO')
    .max(35)
    .default(DEFAULT_LANGUAGE),
  output_format: z.preprocess(
    (value) => (typeof value === 'string' ? value.trim().toLowerCase() : value),
    z.enum(['json', 'srt']).default('json')
  ),
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
    savedFile: row.savedFile
      ? { id: row.savedFile.id, name: row.savedFile.name ?? null, url: row.savedFile.url, mime: row.savedFile.mime ?? null }
      : null,
  };
  if (!withResult) return view;
  return { ...view, result: view.hasResult ? transcriptView(row.result?.subtitles) : null };
}

/** The view with a private bucket's saved file at a URL signed for the admin (narration/media.ts). */
async function withReadableFile<View extends ReturnType<typeof transcriptionView>>(view: View, row: TranscriptionRow): Promise<View> {
  if (row.savedFile && view.savedFile) view.savedFile.url = (await getService('media').readableUrl(row.savedFile)).url;
  return view;
}

/** The row of `:id`, or 404. */
async function findTranscription(ctx: Context): Promise<TranscriptionRow> {
  const id = idParam.safeParse(ctx.params.id);
  const row = id.success ? await getService('speech-to-text').find(id.data) : null;
  if (!row) throw new errors.NotFoundError('This transcription does not exist.');
  return row;
}

function downloadFormat(requested: unknown): DownloadFormat {
  const format = formatSchema.safeParse(requested);
  if (!format.success) throw new errors.ValidationError('format must be srt, vtt or json.', { field: 'format' });
  return format.data;
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

function adminUser(ctx: Context): { id: number | null; name: string | null } {
  const user = ctx.state?.user;
  if (!user) return { id: null, name: null };
  const fullName = [user.firstname, user.lastname].filter(Boolean).join(' ').trim();
  return { id: typeof user.id === 'number' ? user.id : Number(user.id) || null, name: user.username || fullName || user.email || null };
}

export default {
  /** POST /speech/transcriptions (multipart: audio, language, output_format) */
  async submit(ctx: Context) {
    const abort = new AbortController();
    // The editor closed the page or lost the connection: stop sending to the service.
    const onClose = () => {
      if (!ctx.res.writableEnded) abort.abort();
    };
    ctx.res.once('close', onClose);
    try {
      if (!ctx.is('multipart')) {
        throw new errors.ValidationError('Send the audio as multipart/form-data with an "audio" file field.', { field: 'audio' });
      }
      const files = ctx.request.files as Record<string, UploadedFile | UploadedFile[]> | undefined;
      const audioField = files?.audio;
      const audios = Array.isArray(audioField) ? audioField : audioField ? [audioField] : [];
      if (audios.length === 0)
        throw new errors.ValidationError('Choose an audio file to transcribe (form field "audio").', { field: 'audio' });
      if (audios.length > 1) throw new errors.ValidationError('Send one audio file at a time.', { field: 'audio' });
      const audio = audios[0];
      if (audio.size > MAX_AUDIO_BYTES) throw audioTooLargeError(audio.size);
      if (audio.size === 0) throw new errors.ValidationError('The audio file is empty.', { field: 'audio' });

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
        throw new errors.ValidationError(message, { errors: fieldErrors });
      }

      const row = await getService('speech-to-text').submit({
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
      if (error instanceof SubmissionError) rethrowForAdmin(ctx, error.cause, { transcriptionId: error.transcriptionId });
      rethrowForAdmin(ctx, error);
    } finally {
      ctx.res.off('close', onClose);
      // At once, not only in the body guard's finally: the 50 MB file need not wait for the response.
      await removeTemporaryFiles(ctx);
    }
  },

  /** GET /speech/transcriptions?limit=20&mine=true: newest first, without results. */
  async list(ctx: Context) {
    const parsed = listQuery.safeParse(ctx.query ?? {});
    if (!parsed.success)
      throw new errors.ValidationError('limit must be a whole number from 1 to 100.', { errors: parsed.error.flatten().fieldErrors });
    const mine = parsed.data.mine === 'true' || parsed.data.mine === '1';
    const user = adminUser(ctx);
    const speechToText = getService('speech-to-text');
    const rows = await speechToText.list({ limit: parsed.data.limit, submittedById: mine && user.id !== null ? user.id : undefined });
    ctx.body = {
      data: await Promise.all(rows.map((row) => withReadableFile(transcriptionView(row), row))),
      meta: { limit: parsed.data.limit, pollIntervalMs: speechToText.pollIntervalMs },
    };
  },

  /** GET /speech/transcriptions/:id: status, and the result once completed. */
  async findOne(ctx: Context) {
    const row = await findTranscription(ctx);
    ctx.body = { data: await withReadableFile(transcriptionView(row, true), row) };
  },

  /** GET /speech/transcriptions/:id/download?format=srt|vtt|json (default: the format asked of the service). */
  async download(ctx: Context) {
    const row = await findTranscription(ctx);
    const rendered = getService('speech-to-text').render(row, downloadFormat(ctx.query.format ?? row.outputFormat));
    if (!rendered) throw conflict(`This transcription has no result (it is ${row.status}).`, { status: row.status });
    ctx.set('Content-Disposition', attachmentDisposition(rendered.fileName));
    ctx.set('Cache-Control', 'private, no-store');
    ctx.type = rendered.contentType;
    ctx.body = rendered.body;
  },

  /** POST /speech/transcriptions/:id/save { format? }: the result as a Media Library file. */
  async save(ctx: Context) {
    const row = await findTranscription(ctx);
    const speechToText = getService('speech-to-text');
    const format = downloadFormat((ctx.request.body as Record<string, unknown> | undefined)?.format ?? row.outputFormat);
    const saved = await speechToText.saveToMediaLibrary(row, format);
    if (!saved) throw conflict(`This transcription has no result to save (it is ${row.status}).`, { status: row.status });
    const fresh = (await speechToText.find(row.id)) as TranscriptionRow;
    ctx.status = saved.created ? 201 : 200;
    ctx.body = {
      data: await withReadableFile(transcriptionView(fresh), fresh),
      file: {
        id: saved.file.id,
        name: saved.file.name ?? null,
        url: (await getService('media').readableUrl(saved.file)).url,
        mime: saved.file.mime ?? null,
        size: saved.file.size ?? null,
      },
      created: saved.created,
    };
  },
};
