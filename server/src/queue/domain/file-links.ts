import type { MediaLinks } from './states';

/**
 * Which Media Library files a narration row holds, and what a store's final write changes in them.
 * Pure: the repository reads the row's files and writes the result in the same transaction.
 *
 * Every file the plugin puts in the Media Library for a row stays linked to the row, by one of
 * its media fields, until it is removed, so that no crash can leave one that nothing names:
 * - `audio`, `subtitles`, `subtitlesVtt`: the narration (what readers get);
 * - `pendingUploads`: the files of a store on its way; the upload service links each one there
 *   as it creates it, so a store killed before its final write leaves them named on the row, and
 *   the row's next store (or its deletion) removes them (a link the database lost as it went away
 *   is made up for by name: media.ts, removeUnlinkedUploads);
 * - `replacedFiles`: the files a store's final write unlinked from the narration, until they
 *   are removed (right after that write, or after a restart if it was cut short).
 */

export interface LinkedFile {
  id: number;
}

export interface RowFiles<File extends LinkedFile> {
  audio?: File | null;
  subtitles?: File | null;
  subtitlesVtt?: File | null;
  pendingUploads?: File[] | null;
  replacedFiles?: File[] | null;
}

export interface StoreLinks<File extends LinkedFile> {
  /** The ids the row's pending uploads keep: uploads of another store (one that lost its lease), never the ones now linked. */
  pendingUploads: number[];
  /** The ids of the files waiting to be removed: those waiting already, and the ones this write unlinks. */
  replacedFiles: number[];
  /** Those files, for the caller to remove once the write is committed. */
  toRemove: File[];
}

const NARRATION_FIELDS = ['audio', 'subtitles', 'subtitlesVtt'] as const;

/** What linking a store's files as the narration makes of the row's other files. */
export function linkStoredFiles<File extends LinkedFile>(before: RowFiles<File>, links: MediaLinks): StoreLinks<File> {
  const linked = new Set(NARRATION_FIELDS.map((field) => links[field]));
  const unlinked = NARRATION_FIELDS.map((field) => before[field]).filter(
    (file): file is File => Boolean(file?.id) && !linked.has(file!.id)
  );
  const toRemove = uniqueById([...(before.replacedFiles ?? []), ...unlinked]).filter((file) => !linked.has(file.id));
  return {
    pendingUploads: (before.pendingUploads ?? []).map((file) => file.id).filter((id) => !linked.has(id)),
    replacedFiles: toRemove.map((file) => file.id),
    toRemove,
  };
}

/** Every file a row holds (a row being deleted gives them all up). */
export function allFiles<File extends LinkedFile>(row: RowFiles<File>): File[] {
  return uniqueById([
    ...NARRATION_FIELDS.map((field) => row[field]).filter((file): file is File => Boolean(file?.id)),
    ...(row.pendingUploads ?? []),
    ...(row.replacedFiles ?? []),
  ]);
}

function uniqueById<File extends LinkedFile>(files: File[]): File[] {
  const seen = new Set<number>();
  return files.filter((file) => !seen.has(file.id) && Boolean(seen.add(file.id)));
}
