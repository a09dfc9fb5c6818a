import type { NarrationRow } from './jobs.repository';

/** What front ends (REST, GraphQL, the player) see of a narration. Pure. */

/** The status front ends see; the queue's internal states are an implementation detail. */
export function publicStatus(row: Pick<NarrationRow, 'status' | 'audio'>): string {
  if (row.status === 'completed') return 'ready';
  if (row.status === 'failed' || row.status === 'cancelled') return row.audio ? 'ready' : row.status;
  return row.audio ? 'ready' : 'processing';
}

/** The public JSON of a narration; `base` is the site's public URL (server.url). */
export function narrationJson(row: NarrationRow, base: string) {
  const hasFiles = Boolean(row.audio && row.subtitles);
  const fileUrl = (name: string) => (hasFiles ? `${base}/api/speech/narrations/${encodeURIComponent(row.articleId)}/${name}` : null);
  return {
    articleId: row.articleId,
    documentId: row.targetDocumentId,
    locale: row.targetLocale,
    contentType: row.contentType,
    status: publicStatus(row),
    audioUrl: fileUrl('audio.mp3'),
    srtUrl: fileUrl('subtitles.srt'),
    vttUrl: fileUrl('subtitles.vtt'),
    /** A WebVTT chapters track from the article's headings; null when it has none. */
    chaptersUrl: row.chapters?.length ? fileUrl('chapters.vtt') : null,
    voice: row.voiceId,
    durationSeconds: row.durationSeconds ?? null,
    characters: row.characters,
    credits: row.credits,
    updatedAt: row.updatedAt,
  };
}
