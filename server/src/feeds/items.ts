/** A feed item from its narration row and its live entry: link, description, transcripts, chapters, byline, other locales. */
import { documentKey } from '../access';
import type { NarrationRow, Queue } from '../queue';
import { type ContentReader, frontEndUrl, narrationFileUrl, placeholdersOf } from '../narration';
import { fieldToText, narrationParagraphs } from '../text';
import { changeNote } from './change-note';
import { feedItemGuid, type AlternateAudio, type FeedItem } from './rss';

export function feedEnclosureUrl(apiBase: string, pluralName: string, articleId: string): string {
  return `${apiBase}/speech/feeds/${encodeURIComponent(pluralName)}/${encodeURIComponent(articleId)}/audio.mp3`;
}

export function listedIn(live: Set<string>, localized: boolean) {
  return (row: NarrationRow): row is NarrationRow & { audio: NonNullable<NarrationRow['audio']> } =>
    Boolean(row.audio && row.completedAt) && live.has(documentKey(row.targetDocumentId, localized ? row.targetLocale : null));
}

/** What an item shows of its entry beside the narration row. */
export interface ItemContext {
  base: string;
  pluralName: string;
  entry: Record<string, unknown> | undefined;
  type: { url?: string; summary?: { field: string }; textFields: string[]; authorField?: string } | undefined;
  attributeType: (field: string) => string | undefined;
  alternates: AlternateAudio[];
}

const DESCRIPTION_CHARACTERS = 600;

/** The summary field, else the first paragraph of the narrated text, shortened at a word. */
function summaryOf(entry: Record<string, unknown> | undefined, type: ItemContext['type'], attributeType: ItemContext['attributeType']) {
  if (!entry || !type) return null;
  const paragraphsOf = (field: string) => narrationParagraphs(fieldToText(entry[field], attributeType(field)));
  const summary = type.summary ? paragraphsOf(type.summary.field).join('\n\n') : '';
  if (summary) return summary;
  const text = type.textFields.map((field) => paragraphsOf(field)[0]).find(Boolean);
  if (!text || text.length <= DESCRIPTION_CHARACTERS) return text ?? null;
  return `${text.slice(0, DESCRIPTION_CHARACTERS).replace(/\s+\S*$/u, '')}…`;
}

/** One narration as a feed item, its enclosure through the feed's own route. */
export function itemOf(row: NarrationRow & { audio: NonNullable<NarrationRow['audio']> }, context: ItemContext): FeedItem {
  const { base, pluralName, entry, type } = context;
  const duration = row.durationSeconds == null ? null : Number(row.durationSeconds);
  const note = changeNote(row.revisions, row.targetLocale);
  const summary = summaryOf(entry, type, context.attributeType);
  const author = type?.authorField && entry ? fieldToText(entry[type.authorField], context.attributeType(type.authorField)).trim() : '';
  return {
    guid: row.feedGuid ?? feedItemGuid(row.articleId, row.audio),
    title: row.title || row.articleId,
    // Through the feed's own route, which counts downloads.
    audioUrl: feedEnclosureUrl(base, pluralName, row.articleId),
    audioBytes: row.audioBytes ?? null,
    durationSeconds: duration,
    publishedAt: new Date(row.firstCompletedAt ?? row.completedAt!).toISOString(),
    transcriptUrl: row.subtitlesVtt ? narrationFileUrl(base, row.articleId, 'subtitles.vtt') : null,
    srtUrl: row.subtitles ? narrationFileUrl(base, row.articleId, 'subtitles.srt') : null,
    chaptersUrl: row.chapters?.length ? narrationFileUrl(base, row.articleId, 'chapters.json') : null,
    language: row.targetLocale,
    link: entry && type?.url ? frontEndUrl(type.url, entry, row.targetLocale) : null,
    description: [summary, note].filter(Boolean).join('\n\n') || null,
    author: author || null,
    // The same episode in the document's other locales.
    alternates: context.alternates.filter((other) => other.language !== row.targetLocale),
  };
}

/** The entry fields an item reads: its link's placeholders, its summary, its byline. */
export function itemFields(type: ItemContext['type']): string[] {
  if (!type) return [];
  return [...placeholdersOf(type.url ?? ''), type.summary?.field, ...type.textFields, type.authorField].filter(
    (field): field is string => Boolean(field) && field !== 'locale' && field !== 'documentId'
  );
}

/** The same documents' audio in their other locales, as the feed would list it. */
export async function alternatesOf(
  { content, rows }: { content: Pick<ContentReader, 'isLocalized' | 'liveKeys'>; rows: Pick<Queue['reads'], 'withAudioForDocuments'> },
  uid: string,
  rowsShown: NarrationRow[],
  base: string,
  pluralName: string
) {
  const byDocument = new Map<string, AlternateAudio[]>();
  if (!content.isLocalized(uid) || rowsShown.length === 0) return byDocument;
  const documentIds = [...new Set(rowsShown.map((row) => row.targetDocumentId))];
  const [others, live] = await Promise.all([rows.withAudioForDocuments(uid, documentIds), content.liveKeys(uid, documentIds, null)]);
  for (const other of others.filter(listedIn(live, true))) {
    if (!other.targetLocale) continue;
    const list = byDocument.get(other.targetDocumentId) ?? [];
    list.push({
      language: other.targetLocale,
      audioUrl: feedEnclosureUrl(base, pluralName, other.articleId),
      audioBytes: other.audioBytes ?? null,
    });
    byDocument.set(other.targetDocumentId, list);
  }
  return byDocument;
}
