import type { SavedTranscriptFile, TranscriptionDetail, TranscriptionView } from '../../../shared/contracts/transcriptions';
import { transcriptView } from '../subtitles';
import type { MediaFileRef, TranscriptionRow } from './transcription-rows';

/** Never lease data. */
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

export function transcriptionDetail(row: TranscriptionRow): TranscriptionDetail {
  const view = transcriptionView(row);
  return { ...view, result: view.hasResult ? transcriptView(row.result?.subtitles) : null };
}

export function savedFileView(file: MediaFileRef, url: string): SavedTranscriptFile {
  return { id: file.id, name: file.name ?? null, url, mime: file.mime ?? null };
}

/** A private bucket's saved file gets a URL signed for the admin. */
export async function withReadableFile<View extends TranscriptionView>(
  view: View,
  row: TranscriptionRow,
  readableUrl: (file: MediaFileRef) => Promise<{ url: string }>
): Promise<View> {
  if (row.savedFile && view.savedFile) view.savedFile.url = (await readableUrl(row.savedFile)).url;
  return view;
}
