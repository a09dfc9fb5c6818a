import type { Context } from 'koa';
import { errors } from '@strapi/utils';
import { z } from 'zod/v3';
import {
  DEFAULT_TRANSCRIPTION_LANGUAGE,
  TRANSCRIPT_DOWNLOAD_FORMATS,
  TRANSCRIPTION_LIST_LIMIT,
  TRANSCRIPTION_OUTPUT_FORMATS,
  type GetTranscriptionResponse,
  type ListTranscriptionsRequest,
  type ListTranscriptionsResponse,
  type SaveTranscriptionResponse,
  type SubmitTranscriptionRequest,
  type SubmitTranscriptionResponse,
  type TranscriptDownloadFormat,
} from '../../../shared/contracts/transcriptions';
import { removeTemporaryFiles } from './body-guard';
import { rethrowForAdmin, conflict, accepts, parsesTo } from '../http';
import { SubmissionError } from './service';
import type { MediaFileRef, TranscriptionRow } from './transcription-rows';
import { attachmentDisposition } from './result-file';
import { MAX_AUDIO_BYTES } from './settings';
import { audioTooLargeError } from './upload-guard';
import { savedFileView, transcriptionDetail, transcriptionView, withReadableFile } from './admin-view';
import { getService } from '../utils';

/** The Transcribe page's routes. Shapes: shared/contracts/transcriptions.ts. */

// `output_format` goes through z.preprocess, so the parsed values (defaults in) are compared.
const submitFields = parsesTo<Required<SubmitTranscriptionRequest['body']>>()(
  z.object({
    language: z
      .string()
      .trim()
      .regex(/^[A-Za-z]{2,8}(-[A-Za-z0-9]{1,8})*$/, 'must be a language code such as ar-JO')
      .max(35)
      .default(DEFAULT_TRANSCRIPTION_LANGUAGE),
    output_format: z.preprocess(
      (value) => (typeof value === 'string' ? value.trim().toLowerCase() : value),
      z.enum(TRANSCRIPTION_OUTPUT_FORMATS).default('json')
    ),
  })
);
const listQuery = accepts<ListTranscriptionsRequest['query']>()(
  z.object({
    limit: z.coerce.number().int().min(1).max(TRANSCRIPTION_LIST_LIMIT.max).default(TRANSCRIPTION_LIST_LIMIT.default),
    mine: z.enum(['true', 'false', '1', '0']).optional(),
  })
);
const idParam = z.coerce.number().int().positive();
const formatSchema = z.enum(TRANSCRIPT_DOWNLOAD_FORMATS);

/** A private bucket's URL is signed. */
const readableUrl = (file: MediaFileRef) => getService('queue').readableUrl(file);

async function findTranscription(ctx: Context): Promise<TranscriptionRow> {
  const id = idParam.safeParse(ctx.params.id);
  const row = id.success ? await getService('speech-to-text').find(id.data) : null;
  if (!row) throw new errors.NotFoundError('This transcription does not exist.');
  return row;
}

function downloadFormat(requested: unknown): TranscriptDownloadFormat {
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
  async submit(ctx: Context) {
    const abort = new AbortController();
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
        fileName: audio.originalFilename ?? '',
        size: audio.size,
        mimeType: audio.mimetype ?? null,
        language: parsed.data.language,
        outputFormat: parsed.data.output_format,
        user: adminUser(ctx),
        signal: abort.signal,
      });
      ctx.status = 201;
      ctx.body = { data: transcriptionView(row) } satisfies SubmitTranscriptionResponse;
    } catch (error) {
      if (error instanceof SubmissionError) rethrowForAdmin(ctx, error.cause, { transcriptionId: error.transcriptionId });
      rethrowForAdmin(ctx, error);
    } finally {
      ctx.res.off('close', onClose);
      // At once, not only in the body guard's finally: the 50 MB file need not wait for the response.
      await removeTemporaryFiles(ctx);
    }
  },

  async list(ctx: Context) {
    const parsed = listQuery.safeParse(ctx.query ?? {});
    if (!parsed.success)
      throw new errors.ValidationError('limit must be a whole number from 1 to 100.', { errors: parsed.error.flatten().fieldErrors });
    const mine = parsed.data.mine === 'true' || parsed.data.mine === '1';
    const user = adminUser(ctx);
    const speechToText = getService('speech-to-text');
    const rows = await speechToText.list({ limit: parsed.data.limit, submittedById: mine && user.id !== null ? user.id : undefined });
    ctx.body = {
      data: await Promise.all(rows.map((row) => withReadableFile(transcriptionView(row), row, readableUrl))),
      meta: { limit: parsed.data.limit, pollIntervalMs: speechToText.pollIntervalMs },
    } satisfies ListTranscriptionsResponse;
  },

  async findOne(ctx: Context) {
    const row = await findTranscription(ctx);
    ctx.body = { data: await withReadableFile(transcriptionDetail(row), row, readableUrl) } satisfies GetTranscriptionResponse;
  },

  async download(ctx: Context) {
    const row = await findTranscription(ctx);
    const rendered = getService('speech-to-text').render(row, downloadFormat(ctx.query.format ?? row.outputFormat));
    if (!rendered) throw conflict(`This transcription has no result (it is ${row.status}).`, { status: row.status });
    ctx.set('Content-Disposition', attachmentDisposition(rendered.fileName));
    ctx.set('Cache-Control', 'private, no-store');
    ctx.type = rendered.contentType;
    ctx.body = rendered.body;
  },

  async save(ctx: Context) {
    const row = await findTranscription(ctx);
    const speechToText = getService('speech-to-text');
    const format = downloadFormat((ctx.request.body as Record<string, unknown> | undefined)?.format ?? row.outputFormat);
    const saved = await speechToText.saveToMediaLibrary(row, format);
    if (!saved) throw conflict(`This transcription has no result to save (it is ${row.status}).`, { status: row.status });
    const fresh = (await speechToText.find(row.id)) as TranscriptionRow;
    ctx.status = saved.created ? 201 : 200;
    ctx.body = {
      data: await withReadableFile(transcriptionView(fresh), fresh, readableUrl),
      file: { ...savedFileView(saved.file, (await readableUrl(saved.file)).url), size: saved.file.size ?? null },
      created: saved.created,
    } satisfies SaveTranscriptionResponse;
  },
};
