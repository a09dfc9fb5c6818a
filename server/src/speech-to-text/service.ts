import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Core } from '@strapi/strapi';
import {
  PayloadTooLargeError,
  SpeechServiceError,
  type SpeechClient,
  type TranscriptionOutputFormat,
  type SpeechClientConfig,
} from '../speech-client';
import { editorMessage } from '../http';
import { DOWNLOAD_TYPES, renderTranscript, type DownloadFormat } from '../subtitles';
import { createPoller } from './poller';
import type { MediaFileRef, TranscriptionRows, TranscriptionRow } from './transcription-rows';
import { fileStem } from './result-file';
import { MAX_AUDIO_BYTES, readTranscriptionSettings } from './settings';
import type { LedgerService } from '../credits';
import type { QueueConfig } from '../queue';
import type { SpeechToTextConfig } from './config';
import { newOwnerId, safeFileName } from '../utils';

/** Speech to text for the admin routes: the upload streams from the parser's temporary file, never read whole. */

export interface SubmitInput {
  filepath: string;
  /** Only its safe form (safeFileName) is stored and sent on. */
  fileName: string;
  size: number;
  mimeType: string | null;
  language: string;
  outputFormat: TranscriptionOutputFormat;
  user: { id: number | null; name: string | null };
  signal?: AbortSignal;
}

export class SubmissionError extends Error {
  constructor(
    readonly cause: SpeechServiceError,
    readonly transcriptionId: number
  ) {
    super(cause.message);
    this.name = 'SubmissionError';
  }
}

const AUDIO_MIME = /^(audio|video)\/[A-Za-z0-9][A-Za-z0-9!#$&^_.+-]*$/;
const UPLOAD_LEASE_RENEW_MS = 15_000;

export interface SpeechToTextDeps {
  strapi: Core.Strapi;
  config: SpeechToTextConfig & Pick<SpeechClientConfig, 'requestTimeoutMs'> & Pick<QueueConfig, 'worker'>;
  repository: TranscriptionRows;
  client: SpeechClient;
  ledger: Pick<LedgerService, 'transcriptionSubmitted'>;
}

export function createSpeechToTextService({ strapi, config, repository, client, ledger }: SpeechToTextDeps) {
  const settings = readTranscriptionSettings(config);
  const owner = newOwnerId();
  const poller = createPoller({ strapi, repository, client: () => client, settings, owner });

  return {
    pollIntervalMs: settings.pollMs,

    submit: (input: SubmitInput) => submitTranscription({ strapi, repository, client, ledger, settings, owner, poller }, input),

    async list(options: { limit: number; submittedById?: number }) {
      return repository.list(options);
    },

    async find(id: number) {
      return repository.findById(id);
    },

    render: renderTranscription,

    saveToMediaLibrary: (row: TranscriptionRow, format: DownloadFormat) => saveToMediaLibrary(strapi, repository, row, format),

    async start() {
      if (config.worker) poller.start();
    },
    async stop() {
      await poller.stop();
    },
  };
}

/** What one upload to the service needs. */
interface SubmitContext extends Pick<SpeechToTextDeps, 'strapi' | 'repository' | 'client' | 'ledger'> {
  settings: ReturnType<typeof readTranscriptionSettings>;
  owner: string;
  poller: Pick<ReturnType<typeof createPoller>, 'wake'>;
}

/** A refusal by the service marks the row failed and throws SubmissionError. */
async function submitTranscription(ctx: SubmitContext, input: SubmitInput): Promise<TranscriptionRow> {
  const { strapi, repository, client, settings, owner, poller } = ctx;
  if (input.size > MAX_AUDIO_BYTES) throw new PayloadTooLargeError({ sizeBytes: input.size });
  // The client's name may carry a path or markup: the service, the row and the Media Library get the safe form.
  const fileName = safeFileName(input.fileName);
  const now = new Date();
  const row = await repository.createUploading(
    {
      submittedById: input.user.id,
      submittedByName: input.user.name?.slice(0, 255) ?? null,
      fileName,
      fileSize: input.size,
      mimeType: input.mimeType?.slice(0, 255) ?? null,
      language: input.language,
      outputFormat: input.outputFormat,
    },
    owner,
    settings.uploadLeaseMs,
    now
  );

  let lastRenewal = Date.now();
  let renewal: Promise<void> = Promise.resolve();
  const onUploadProgress = () => {
    if (Date.now() - lastRenewal < UPLOAD_LEASE_RENEW_MS) return;
    lastRenewal = Date.now();
    renewal = repository.renewUploadLease(row.id, owner, settings.uploadLeaseMs, new Date()).catch(() => undefined);
  };

  try {
    const { jobId, creditsUsed, creditsRemaining } = await client.submitTranscription(
      {
        file: input.filepath,
        filename: fileName,
        size: input.size,
        contentType: input.mimeType && AUDIO_MIME.test(input.mimeType) ? input.mimeType : undefined,
        language: input.language,
        outputFormat: input.outputFormat,
      },
      { signal: input.signal, onUploadProgress }
    );
    await renewal;
    const accepted = new Date();
    await repository.markSubmitted(row.id, owner, jobId, new Date(accepted.getTime() + settings.pollMs), accepted);
    poller.wake();
    await noteInLedger(ctx, row, input, fileName, { jobId, creditsUsed, creditsRemaining, at: accepted });
    strapi.log.info(
      `[speech] transcription ${row.id} submitted (job ${jobId}, ${input.size} bytes, ${input.language}, ${input.outputFormat})`
    );
    return (await repository.findById(row.id)) as TranscriptionRow;
  } catch (error) {
    await renewal;
    throw await uploadFailed(ctx, row, error);
  }
}

/** The row marked failed in the editor's words (nothing retries an upload, so they stay); the error to throw. */
async function uploadFailed({ strapi, repository, owner }: SubmitContext, row: TranscriptionRow, error: unknown): Promise<SubmissionError> {
  const serviceError =
    error instanceof SpeechServiceError
      ? error
      : new SpeechServiceError(`The upload failed: ${(error as Error)?.message ?? String(error)}`, {
          code: 'UPLOAD_FAILED',
          retryable: false,
        });
  const message =
    serviceError.code === 'ABORTED' ? 'The upload was cancelled before the speech service accepted it.' : editorMessage(serviceError);
  await repository.markFailed(row.id, ['uploading'], { error: message, errorCode: serviceError.code }, owner);
  strapi.log.warn(`[speech] transcription ${row.id} not submitted: ${message}`);
  return new SubmissionError(serviceError, row.id);
}

/** The transcription in the ledger, caused by the editor who sent it; a ledger that fails does not fail the upload. */
async function noteInLedger(
  { strapi, ledger }: SubmitContext,
  row: TranscriptionRow,
  input: SubmitInput,
  fileName: string,
  { jobId, creditsUsed, creditsRemaining, at }: { jobId: string; creditsUsed?: number; creditsRemaining?: number; at: Date }
) {
  await ledger
    .transcriptionSubmitted({
      jobId,
      origin: { cause: 'transcription', causedBy: input.user.name ?? null },
      title: fileName,
      at,
      credits: creditsUsed,
      creditsRemaining,
    })
    .catch((error) => strapi.log.error(`[speech] transcription ${row.id}: the ledger did not record it: ${(error as Error).message}`));
}

function renderTranscription(
  row: TranscriptionRow,
  format: DownloadFormat
): { body: string; fileName: string; contentType: string } | null {
  if (row.status !== 'completed' || !row.result) return null;
  const type = DOWNLOAD_TYPES[format];
  return {
    body: renderTranscript(row.result.subtitles, format),
    fileName: `${fileStem(row.fileName)}.${type.extension}`,
    contentType: type.contentType,
  };
}

/** Through the upload service, so any provider works; the same format again returns the linked file. */
async function saveToMediaLibrary(
  strapi: Core.Strapi,
  repository: TranscriptionRows,
  row: TranscriptionRow,
  format: DownloadFormat
): Promise<{ file: MediaFileRef; created: boolean } | null> {
  const upload = () => strapi.plugin('upload').service('upload');
  const rendered = renderTranscription(row, format);
  if (!rendered) return null;
  const linked = row.savedFile;
  if (linked?.id && linked.name?.toLowerCase().endsWith(`.${DOWNLOAD_TYPES[format].extension}`)) {
    const existing = await upload()
      .findOne(linked.id)
      .catch(() => null);
    if (existing) return { file: existing as MediaFileRef, created: false };
  }
  const workDir = await fs.mkdtemp(path.join(os.tmpdir(), 'speech-transcript-'));
  try {
    const filepath = path.join(workDir, rendered.fileName);
    await fs.writeFile(filepath, rendered.body, 'utf8');
    const { size } = await fs.stat(filepath);
    // Rows stored before names were made safe may still hold the raw one.
    const caption = `Transcription of "${safeFileName(row.fileName)}" (${row.language})`;
    const [file] = await upload().upload({
      data: { fileInfo: { name: `transcription-${row.id}-${rendered.fileName}`, caption, alternativeText: caption } },
      files: { filepath, originalFilename: rendered.fileName, mimetype: DOWNLOAD_TYPES[format].mime, size },
    });
    await repository.linkFile(row.id, (file as MediaFileRef).id);
    return { file: file as MediaFileRef, created: true };
  } finally {
    await fs.rm(workDir, { recursive: true, force: true });
  }
}
