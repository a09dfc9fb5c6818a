/**
 * What a segmented narration's row keeps of its parts (docs/segmented-narration.md): the state machine writes them. Pure.
 *
 * - The plan: the parts of the version being narrated, in reading order (a part may repeat: two
 *   identical paragraphs share one key, and one generation).
 * - The map of the stored audio: where each part of the joined MP3 and SRT is, so an unchanged part
 *   is read back from storage when the next version is joined, and never asked for again.
 */

/** One part of the version being narrated. `key` is its articleId at the service. */
export interface PlannedPart {
  key: string;
  characters: number;
  credits: number;
}

/** One part of the stored joined audio. */
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

/** The keys whose audio a stored map holds. */
export function storedKeys(map: readonly StoredPart[] | null | undefined): Set<string> {
  return new Set((map ?? []).map((part) => part.key));
}
