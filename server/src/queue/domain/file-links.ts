import type { MediaLinks } from './states';

/**
 * Every file the plugin uploads for a row stays linked to it (narration fields, `pendingUploads` while a
 * store is on its way, `replacedFiles` until removed), so no crash can leave a file nothing names.
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
  replacedFiles: number[];
  toRemove: File[];
}

const NARRATION_FIELDS = ['audio', 'subtitles', 'subtitlesVtt'] as const;

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
