import type { NarrationRow } from '../../queue';
import { audioObjectJsonLd } from './json-ld';

/** What front ends (REST, GraphQL, the player) see of a narration. Pure. */

/** The status front ends see; the queue's internal states are an implementation detail. */
export function publicStatus(row: Pick<NarrationRow, 'status' | 'audio'>): string {
  if (row.status === 'completed') return 'ready';
  if (row.status === 'failed' || row.status === 'cancelled') return row.audio ? 'ready' : row.status;
  return row.audio ? 'ready' : 'processing';
}

/** The public route of one of a narration's files (`audio.mp3`, `subtitles.vtt`...). */
export function narrationFileUrl(apiBase: string, articleId: string, name: string): string {
  return `${apiBase}/speech/narrations/${encodeURIComponent(articleId)}/${name}`;
}

/** The characters a narration's audio reads: its stored parts' when joined from parts, else the row's. */
function storedCharacters(row: Pick<NarrationRow, 'characters' | 'segments'>): number {
  return row.segments?.length ? row.segments.reduce((sum, part) => sum + part.characters, 0) : row.characters;
}

/** The public JSON of a narration; `base` is the site's content API (server.url and api.rest.prefix). */
export function narrationJson(row: NarrationRow, base: string) {
  const hasFiles = Boolean(row.audio && row.subtitles);
  const fileUrl = (name: string) => (hasFiles ? narrationFileUrl(base, row.articleId, name) : null);
  const audioUrl = fileUrl('audio.mp3');
  const vttUrl = fileUrl('subtitles.vtt');
  // Decimal columns come back as strings from some databases.
  const seconds = row.durationSeconds == null ? null : Number(row.durationSeconds);
  return {
    articleId: row.articleId,
    documentId: row.targetDocumentId,
    locale: row.targetLocale,
    contentType: row.contentType,
    status: publicStatus(row),
    title: row.title ?? null,
    audioUrl,
    srtUrl: fileUrl('subtitles.srt'),
    vttUrl,
    /** A WebVTT chapters track from the article's headings; null when it has none. */
    chaptersUrl: row.chapters?.length ? fileUrl('chapters.vtt') : null,
    voice: row.voiceId,
    durationSeconds: seconds,
    /** The MP3's exact length in bytes; null until stored (and for audio stored before the column existed, until a feed has measured it). */
    audioBytes: hasFiles ? (row.audioBytes ?? null) : null,
    /** The characters the audio reads: a segmented narration's stored parts together, not only the parts its last edit paid. */
    characters: storedCharacters(row),
    /** What the latest version cost: for a segmented narration, the parts that changed. */
    credits: row.credits,
    updatedAt: row.updatedAt,
    /** A schema.org AudioObject to embed in the article's page; null while there is no audio. */
    jsonLd: audioUrl
      ? audioObjectJsonLd({
          title: row.title,
          audioUrl,
          vttUrl,
          durationSeconds: seconds,
          locale: row.targetLocale,
          uploadedAt: row.completedAt ? new Date(row.completedAt).toISOString() : null,
        })
      : null,
  };
}
