/** Speech to text: upload (spec 2.4, 4.2) answers a job id, whose status (4.3) is polled until done. */
import { createReadStream, promises as fs } from 'fs';
import { Readable } from 'stream';
import { DEFAULT_TRANSCRIPTION_LANGUAGE } from '../../../shared/contracts/transcriptions';

import {
  InvalidRequestError,
  MAX_TRANSCRIPTION_UPLOAD_BYTES,
  PayloadTooLargeError,
  RequestAbortedError,
  UnexpectedResponseError,
  UploadSourceError,
} from './errors';
import { numericHeader } from './headers';
import { audioUploadBody } from './multipart';
import { requireText } from './requests';
import { MAX_JSON_RESPONSE_BYTES, parseJsonOrUnavailable, type Exchange, type Transport } from './transport';
import type { SttJob, TranscriptionOutputFormat } from './types';
import { idText, isRecord } from './values';

export interface TranscriptionUpload {
  /** Never read whole into memory. */
  file: NodeJS.ReadableStream | string;
  filename: string;
  /** Lets the 50 MB check happen before sending, and the body carry a Content-Length. */
  size?: number;
  contentType?: string;
  language?: string;
  outputFormat?: TranscriptionOutputFormat;
}

export interface SubmittedTranscription {
  jobId: string;
  creditsUsed?: number;
  creditsRemaining?: number;
}

export interface TranscriptionUploadOptions {
  signal?: AbortSignal;
  onUploadProgress?: (sentBytes: number) => void;
}

export function createSpeechToTextEndpoint(transport: Transport, webRoot: string) {
  async function submitTranscription(upload: TranscriptionUpload, opts: TranscriptionUploadOptions = {}): Promise<SubmittedTranscription> {
    const fields = transcriptionFields(upload);
    if (opts.signal?.aborted) throw new RequestAbortedError();

    // The size is checked before a single byte is sent (spec section 8: 50 MB at most).
    const size = await uploadSize(upload);
    if (size !== undefined && size > MAX_TRANSCRIPTION_UPLOAD_BYTES) throw new PayloadTooLargeError({ sizeBytes: size });

    const source: Readable =
      typeof upload.file === 'string'
        ? createReadStream(upload.file)
        : upload.file instanceof Readable
          ? upload.file
          : new Readable().wrap(upload.file);
    const body = audioUploadBody({ ...fields, source, filename: upload.filename, size, onProgress: opts.onUploadProgress });

    let exchanged: Exchange;
    try {
      exchanged = await transport.exchange({
        endpoint: 'general',
        method: 'POST',
        url: `${webRoot}/api/v1/stt/submit/`,
        data: body.stream,
        headers: body.headers,
        maxContentLength: MAX_JSON_RESPONSE_BYTES,
        signal: opts.signal,
        overallDeadline: false,
      });
    } catch (error) {
      // When the source, not the network, is at fault, that is the error to report.
      throw body.sourceFailure() ?? error;
    } finally {
      body.stream.destroy();
      if (typeof upload.file === 'string') source.destroy();
    }

    const parsed = parseJsonOrUnavailable(exchanged.body, exchanged.status);
    const jobId = idText(isRecord(parsed) ? parsed.job_id : undefined);
    if (jobId === undefined) {
      throw new UnexpectedResponseError({
        status: exchanged.status,
        message: 'The speech service accepted the audio but did not return a job id.',
      });
    }
    // The contract prices narration only; a service that charges for speech to text says so in these headers.
    const submitted: SubmittedTranscription = { jobId };
    const creditsUsed = numericHeader(exchanged.headers, 'service-credits-used');
    const creditsRemaining = numericHeader(exchanged.headers, 'service-credits-remaining');
    if (creditsUsed !== undefined) submitted.creditsUsed = creditsUsed;
    if (creditsRemaining !== undefined) submitted.creditsRemaining = creditsRemaining;
    return submitted;
  }

  async function getTranscriptionStatus(jobId: string): Promise<SttJob> {
    requireText(jobId, 'jobId', 'general', 'No transcription job id was given.');
    const { status, body } = await transport.exchange({
      endpoint: 'general',
      method: 'GET',
      url: `${webRoot}/api/v1/stt/status/${encodeURIComponent(jobId)}/`,
      maxContentLength: MAX_JSON_RESPONSE_BYTES,
      overallDeadline: true,
    });
    const parsed = parseJsonOrUnavailable(body, status);
    if (!isRecord(parsed) || typeof parsed.status !== 'string') {
      throw new UnexpectedResponseError({ status, message: 'The speech service sent a transcription status without a status.' });
    }
    const job: SttJob = {
      job_id: typeof parsed.job_id === 'string' || typeof parsed.job_id === 'number' ? String(parsed.job_id) : jobId,
      status: parsed.status,
    };
    if (isRecord(parsed.error)) {
      const { code, message } = parsed.error;
      job.error = {
        ...(typeof code === 'string' ? { code } : {}),
        ...(typeof message === 'string' ? { message: message.slice(0, 500) } : {}),
      };
    }
    if (isRecord(parsed.result)) {
      job.result = { ...parsed.result, subtitles: parsed.result.subtitles };
    } else if (parsed.status === 'completed') {
      throw new UnexpectedResponseError({ status, message: 'The speech service reported the transcription complete but sent no result.' });
    }
    return job;
  }

  return { submitTranscription, getTranscriptionStatus };
}

async function uploadSize(upload: TranscriptionUpload): Promise<number | undefined> {
  if (upload.size !== undefined && (!Number.isInteger(upload.size) || upload.size < 0)) {
    throw new InvalidRequestError({ message: 'The audio size must be a whole number of bytes.' });
  }
  if (typeof upload.file !== 'string') return upload.size;
  try {
    const stat = await fs.stat(upload.file);
    if (!stat.isFile()) throw new Error('not a file');
    return stat.size;
  } catch {
    throw new UploadSourceError();
  }
}

interface TranscriptionFields {
  language: string;
  outputFormat: TranscriptionOutputFormat;
  contentType: string;
}

const LANGUAGE_TAG = /^[A-Za-z]{2,8}(-[A-Za-z0-9]{1,8})*$/;
const MEDIA_TYPE = /^[A-Za-z0-9][A-Za-z0-9!#$&^_.+-]*\/[A-Za-z0-9][A-Za-z0-9!#$&^_.+-]*$/;

function transcriptionFields(upload: TranscriptionUpload): TranscriptionFields {
  if (!isRecord(upload) || (typeof upload.file !== 'string' && !isReadable(upload.file))) {
    throw new InvalidRequestError({ message: 'No audio file was given to transcribe.' });
  }
  requireText(upload.filename, 'filename', 'general', 'The audio file has no name.');
  const language = upload.language ?? DEFAULT_TRANSCRIPTION_LANGUAGE;
  if (!LANGUAGE_TAG.test(language)) {
    throw new InvalidRequestError({ message: `"${language}" is not a language code such as ar-JO.`, details: { field: 'language' } });
  }
  const outputFormat = upload.outputFormat ?? 'json';
  if (outputFormat !== 'json' && outputFormat !== 'srt') {
    throw new InvalidRequestError({ message: 'The transcription format must be json or srt.', details: { field: 'output_format' } });
  }
  const contentType = upload.contentType ?? audioTypeFromName(upload.filename);
  if (!MEDIA_TYPE.test(contentType)) {
    throw new InvalidRequestError({ message: 'The audio file has an invalid content type.', details: { field: 'contentType' } });
  }
  return { language, outputFormat, contentType };
}

const AUDIO_TYPES: Record<string, string> = {
  mp3: 'audio/mpeg',
  wav: 'audio/wav',
  m4a: 'audio/mp4',
  mp4: 'audio/mp4',
  aac: 'audio/aac',
  ogg: 'audio/ogg',
  oga: 'audio/ogg',
  opus: 'audio/ogg',
  webm: 'audio/webm',
  flac: 'audio/flac',
};

function audioTypeFromName(filename: string): string {
  const extension = /\.([A-Za-z0-9]+)$/.exec(filename)?.[1]?.toLowerCase();
  return (extension !== undefined ? AUDIO_TYPES[extension] : undefined) ?? 'application/octet-stream';
}

function isReadable(value: unknown): value is NodeJS.ReadableStream {
  return isRecord(value) && typeof (value as { pipe?: unknown }).pipe === 'function';
}
