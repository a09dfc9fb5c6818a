import type { NarrationRow } from '../../queue';
import { audioObjectJsonLd } from './json-ld';

/** The queue's internal states are an implementation detail. */
export function publicStatus(row: Pick<NarrationRow, 'status' | 'audio'>): string {
  if (row.status === 'completed') return 'ready';
  if (row.status === 'failed' || row.status === 'cancelled') return row.audio ? 'ready' : row.status;
  return row.audio ? 'ready' : 'processing';
}

export function narrationFileUrl(apiBase: string, articleId: string, name: string): string {
  return `${apiBase}/speech/narrations/${encodeURIComponent(articleId)}/${name}`;
}

function storedCharacters(row: Pick<NarrationRow, 'characters' | 'segments'>): number {
  return row.segments?.length ? row.segments.reduce((sum, part) => sum + part.characters, 0) : row.characters;
}

/** `base`: the site's content API (server.url and api.rest.prefix); `aiLabel`: the player's label for this locale, null when off. */
export function narrationJson(row: NarrationRow, base: string, page?: { aiLabel: string | null; pageUrl: string | null }) {
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
    chaptersUrl: row.chapters?.length ? fileUrl('chapters.vtt') : null,
    voice: row.voiceId,
    durationSeconds: seconds,
    /** Null until stored, or until a feed has measured older audio. */
    audioBytes: hasFiles ? (row.audioBytes ?? null) : null,
    /** A segmented narration's stored parts together, not only the parts its last edit paid. */
    characters: storedCharacters(row),
    credits: row.credits,
    updatedAt: row.updatedAt,
    /** Newest first; what the audio is now and how it came to be. */
    revisions: (row.revisions ?? []).map(({ at, cause, changed }) => ({ at, cause, changed })),
    ...(page ? { aiLabel: page.aiLabel, pageUrl: page.pageUrl } : {}),
    jsonLd: audioUrl
      ? audioObjectJsonLd({
          title: row.title,
          pageUrl: page?.pageUrl ?? null,
          audioUrl,
          vttUrl,
          durationSeconds: seconds,
          locale: row.targetLocale,
          uploadedAt: row.completedAt ? new Date(row.completedAt).toISOString() : null,
        })
      : null,
  };
}
