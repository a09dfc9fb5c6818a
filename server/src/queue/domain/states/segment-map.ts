/**
 * What a segmented row keeps of its parts: the plan (identical paragraphs share one key and one
 * generation), and where each is in the stored audio, so an unchanged part is never asked for again.
 */

/** `key` is its articleId at the service. */
export interface PlannedPart {
  key: string;
  characters: number;
  credits: number;
}

export interface StoredPart {
  key: string;
  characters: number;
  /** Byte range of the part's MPEG frames in the joined MP3 (no header of its own). */
  audioOffset: number;
  audioLength: number;
  durationSeconds: number;
  /** Where it starts in the joined timeline, as its cues were shifted (ms). */
  offsetMs: number;
  /** Its cues in the joined SRT: `cueCount` of them from the 0-based `cueFirst`. */
  cueFirst: number;
  cueCount: number;
}

export function storedKeys(map: readonly StoredPart[] | null | undefined): Set<string> {
  return new Set((map ?? []).map((part) => part.key));
}
