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

/**
 * Speech to text as the admin routes see it: submit an upload (streamed from the body parser's
 * temporary file to the service), follow the job (the poller), save or render the result. The
 * rows are the `transcriptions` service; the client is the plugin's one `speech-client`.
 */

export interface SubmitInput {
  /** The body parser's temporary file. Read as a stream, never whole. */
  filepath: string;
  /** The name the client sent; only its safe form (safeFileName) is stored and sent on. */
  fileName: string;
  size: number;
  mimeType: string | null;
  language: string;
  outputFormat: TranscriptionOutputFormat;
  user: { id: number | null; name: string | null };
  signal?: AbortSignal;
}

/** A speech-service error from a submission, with the row that records it. */
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
  /** Its own timing, the service's request timeout, and whether this instance runs workers. */
  config: SpeechToTextConfig & Pick<SpeechClientConfig, 'requestTimeoutMs'> & Pick<QueueConfig, 'worker'>;
  repository: TranscriptionRows;
  client: SpeechClient;
  ledger: Pick<LedgerService, 'transcriptionSubmitted'>;
}

export function createSpeechToTextService({ strapi, config, repository, client, ledger }: SpeechToTextDeps) {
  const settings = readTranscriptionSettings(config);
  const owner = newOwnerId();
  const poller = createPoller({ strapi, repository, client: () => client, settings, owner });
  const upload = () => strapi.plugin('upload').service('upload');

  return {
    /** How often the admin may look again at a job in progress: the poller's own interval. */
    pollIntervalMs: settings.pollMs,

    /**
     * Records the upload, streams it to `POST /api/v1/stt/submit/` and returns the queued row.
     * A refusal by the service marks the row failed and throws SubmissionError.
     */
    async submit(input: SubmitInput): Promise<TranscriptionRow> {
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
        // In the ledger as a request of the site's, at what the service said it cost.
        await ledger
          .transcriptionSubmitted({
            jobId,
            origin: { cause: 'transcription', causedBy: input.user.name ?? null },
            title: fileName,
            at: accepted,
            credits: creditsUsed,
            creditsRemaining,
          })
          .catch((error) =>
            strapi.log.error(`[speech] transcription ${row.id}: the ledger did not record it: ${(error as Error).message}`)
          );
        strapi.log.info(
          `[speech] transcription ${row.id} submitted (job ${jobId}, ${input.size} bytes, ${input.language}, ${input.outputFormat})`
        );
        return (await repository.findById(row.id)) as TranscriptionRow;
      } catch (error) {
        await renewal;
        const serviceError =
          error instanceof SpeechServiceError
            ? error
            : new SpeechServiceError(`The upload failed: ${(error as Error)?.message ?? String(error)}`, {
                code: 'UPLOAD_FAILED',
                retryable: false,
              });
        // Kept on the row and shown in the recent list: the editor-facing words (nothing retries an upload).
        const message =
          serviceError.code === 'ABORTED' ? 'The upload was cancelled before the speech service accepted it.' : editorMessage(serviceError);
        await repository.markFailed(row.id, ['uploading'], { error: message, errorCode: serviceError.code }, owner);
        strapi.log.warn(`[speech] transcription ${row.id} not submitted: ${message}`);
        throw new SubmissionError(serviceError, row.id);
      }
    },

    async list(options: { limit: number; submittedById?: number }) {
      return repository.list(options);
    },

    async find(id: number) {
      return repository.findById(id);
    },

    /** The result as a file's content, or null when there is no result yet. */
    render(row: TranscriptionRow, format: DownloadFormat): { body: string; fileName: string; contentType: string } | null {
      if (row.status !== 'completed' || !row.result) return null;
      const type = DOWNLOAD_TYPES[format];
      return {
        body: renderTranscript(row.result.subtitles, format),
        fileName: `${fileStem(row.fileName)}.${type.extension}`,
        contentType: type.contentType,
      };
    },

    /**
     * Stores the result in the Media Library (through the upload service, so any provider works)
     * and links it to the row. Saving the same format again returns the linked file.
     */
    async saveToMediaLibrary(row: TranscriptionRow, format: DownloadFormat): Promise<{ file: MediaFileRef; created: boolean } | null> {
      const rendered = this.render(row, format);
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
    },

    async start() {
      if (config.worker) poller.start();
    },
    async stop() {
      await poller.stop();
    },
  };
}

export type SpeechToTextService = ReturnType<typeof createSpeechToTextService>;
