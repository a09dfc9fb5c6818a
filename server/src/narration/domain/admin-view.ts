import type { MediaRef } from '../../../../shared/contracts/common';
import type { NarrationView, PartsProgress } from '../../../../shared/contracts/narrations';
import type { VerificationView } from '../../../../shared/contracts/verification';
import type { MediaFileRef, NarrationListRow, NarrationRow } from '../../queue';
import { isPreprocessType } from './cost';

type ListedRow = NarrationListRow &
  Partial<Pick<NarrationRow, 'audio' | 'subtitles' | 'subtitlesVtt'>> & {
    parts?: PartsProgress | null;
  };

const mediaRef = (file: MediaFileRef | null | undefined): MediaRef | null => (file ? { id: file.id, url: file.url } : null);

/** Never the API key, never internal lease data. */
export function adminNarrationView(row: ListedRow, verification: VerificationView | null = null): NarrationView {
  return {
    articleId: row.articleId,
    documentId: row.targetDocumentId,
    locale: row.targetLocale,
    contentType: row.contentType,
    status: row.status,
    title: row.title,
    voiceId: row.voiceId,
    // Always "0" or "2" in the table (the service only ever records one of them).
    preprocessType: isPreprocessType(row.preprocessType) ? row.preprocessType : null,
    characters: row.characters,
    credits: row.credits,
    attempts: row.attempts,
    regenerate: row.regenerate,
    lastError: row.lastError,
    lastErrorCode: row.lastErrorCode,
    creditsMayBeLost: row.creditsMayBeLost,
    nextAttemptAt: row.nextAttemptAt,
    submittedAt: row.submittedAt,
    completedAt: row.completedAt,
    updatedAt: row.updatedAt,
    audio: mediaRef(row.audio),
    subtitles: mediaRef(row.subtitles),
    subtitlesVtt: mediaRef(row.subtitlesVtt),
    parts: row.parts ?? null,
    verification,
  };
}

/** A private bucket's files are signed for the admin. */
export async function adminNarrationViewWithFiles(
  row: NarrationRow & { parts?: PartsProgress | null },
  readableUrl: (file: MediaFileRef) => Promise<{ url: string }>,
  verification: VerificationView | null = null
): Promise<NarrationView> {
  const view = adminNarrationView(row, verification);
  for (const field of ['audio', 'subtitles', 'subtitlesVtt'] as const) {
    const file = row[field];
    if (file && view[field]) view[field] = { id: file.id, url: (await readableUrl(file)).url };
  }
  return view;
}
