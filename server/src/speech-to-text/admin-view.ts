import type { SavedTranscriptFile, TranscriptionDetail, TranscriptionView } from '../../../shared/contracts/transcriptions';
import { transcriptView } from '../subtitles';
import type { MediaFileRef, TranscriptionRow } from './transcription-rows';

/** What the Transcribe page sees of a job (shared/contracts/transcriptions.ts). Pure: no Strapi, no I/O. */

/** What the admin sees of a row; never lease data. */
export function transcriptionView(row: TranscriptionRow): TranscriptionView {
  return {
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
    savedFile: row.savedFile ? savedFileView(row.savedFile, row.savedFile.url) : null,
  };
}

/** The view with the result, once there is one. */
export function transcriptionDetail(row: TranscriptionRow): TranscriptionDetail {
  const view = transcriptionView(row);
  return { ...view, result: view.hasResult ? transcriptView(row.result?.subtitles) : null };
}

/** A saved result at `url` (the admin's readable URL of the file). */
export function savedFileView(file: MediaFileRef, url: string): SavedTranscriptFile {
  return { id: file.id, name: file.name ?? null, url, mime: file.mime ?? null };
}

/** The view with a private bucket's saved file at a URL `readableUrl` signs for the admin (queue/media/media.ts). */
export async function withReadableFile<View extends TranscriptionView>(
  view: View,
  row: TranscriptionRow,
  readableUrl: (file: MediaFileRef) => Promise<{ url: string }>
): Promise<View> {
  if (row.savedFile && view.savedFile) view.savedFile.url = (await readableUrl(row.savedFile)).url;
  return view;
}
