/**
 * Speech to text for the admin (server/src/speech-to-text): the Transcribe page submits an upload,
 * follows its jobs, downloads and saves results. Plain types and constants, imported by the server
 * and the admin alike.
 */

/** The largest audio file the speech service accepts (spec section 8). */
export const MAX_TRANSCRIPTION_UPLOAD_BYTES = 50 * 1024 * 1024;

/** The language a transcription is asked in when the upload names none. */
export const DEFAULT_TRANSCRIPTION_LANGUAGE = 'ar-JO';

/** What GET /speech/transcriptions lists when not told, and the most it lists. */
export const TRANSCRIPTION_LIST_LIMIT = { default: 20, max: 100 } as const;

export type TranscriptionStatus = 'uploading' | 'queued' | 'processing' | 'completed' | 'failed';

/** What the service is asked for: timed segments (json) or an SRT file. */
export const TRANSCRIPTION_OUTPUT_FORMATS = ['json', 'srt'] as const;
export type TranscriptionOutputFormat = (typeof TRANSCRIPTION_OUTPUT_FORMATS)[number];

/** What an editor downloads or saves, whatever the service returned. */
export const TRANSCRIPT_DOWNLOAD_FORMATS = ['srt', 'vtt', 'json'] as const;
export type TranscriptDownloadFormat = (typeof TRANSCRIPT_DOWNLOAD_FORMATS)[number];

/** A result saved in the Media Library (a private bucket's URL is signed for the admin). */
export interface SavedTranscriptFile {
  id: number;
  name: string | null;
  url: string;
  mime: string | null;
  size?: number | null;
}

/** What the admin sees of a transcription job; never lease data. */
export interface TranscriptionView {
  id: number;
  documentId: string;
  fileName: string;
  fileSize: number;
  mimeType: string | null;
  language: string;
  outputFormat: TranscriptionOutputFormat;
  status: TranscriptionStatus;
  serviceStatus: string | null;
  jobId: string | null;
  submittedBy: { id: number | null; name: string | null } | null;
  error: string | null;
  errorCode: string | null;
  /** A transient problem while following the job (it is retried); null when the last poll went well. */
  pollWarning: string | null;
  nextPollAt: string | null;
  createdAt: string;
  submittedAt: string | null;
  completedAt: string | null;
  updatedAt: string;
  hasResult: boolean;
  savedFile: SavedTranscriptFile | null;
}

export interface TranscriptSegment {
  /** Seconds from the start of the audio, millisecond precision. */
  start: number;
  end: number;
  text: string;
}

/** The result as the admin shows it. */
export interface TranscriptResult {
  /** What the service returned: timed segments (json) or an SRT file (srt). */
  format: TranscriptionOutputFormat;
  segments: TranscriptSegment[];
  /** The plain transcript, segments joined by spaces. */
  text: string;
  /** The SRT as the service sent it, when it sent SRT. */
  srt: string | null;
}

/** A job with its result (null until completed). */
export interface TranscriptionDetail extends TranscriptionView {
  result: TranscriptResult | null;
}

/**
 * POST /speech/transcriptions (multipart/form-data): the `audio` file and these fields
 * (`outputFormat` is read too); answers 201 with the new job.
 */
export interface SubmitTranscriptionRequest {
  body: { language?: string; output_format?: TranscriptionOutputFormat };
}
export interface SubmitTranscriptionResponse {
  data: TranscriptionView;
}

/** GET /speech/transcriptions?limit&mine: newest first, without results (`mine`: the caller's own). */
export interface ListTranscriptionsRequest {
  query: { limit?: number; mine?: 'true' | 'false' | '1' | '0' };
}
export interface ListTranscriptionsResponse {
  data: TranscriptionView[];
  meta: { limit: number; pollIntervalMs: number };
}

/** GET /speech/transcriptions/:id: status, and the result once completed. */
export interface GetTranscriptionRequest {
  params: { id: number };
}
export interface GetTranscriptionResponse {
  data: TranscriptionDetail;
}

/** GET /speech/transcriptions/:id/download?format -> the file (default: the format asked of the service). */
export interface DownloadTranscriptRequest {
  params: { id: number };
  query: { format?: TranscriptDownloadFormat };
}

/** POST /speech/transcriptions/:id/save: the result as a Media Library file (201 when created). */
export interface SaveTranscriptionRequest {
  params: { id: number };
  body: { format?: TranscriptDownloadFormat };
}
export interface SaveTranscriptionResponse {
  data: TranscriptionView;
  file: SavedTranscriptFile;
  created: boolean;
}
