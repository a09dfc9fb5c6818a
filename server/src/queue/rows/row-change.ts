import type { MediaFileRef, NarrationRow } from '../domain/narration-row';
import type { NarrationEvent, NarrationPatch, NarrationStatus } from '../domain/states';

/** What a write of a narration row did: the change committed, or why none was. */
export interface CommittedChange {
  event: NarrationEvent;
  from: NarrationStatus[];
  patch: NarrationPatch;
  row: NarrationRow;
}

export type ApplyOutcome =
  /** `replaced`: when the patch linked files, the ones waiting to be removed (those it unlinked among them; the caller removes them). */
  { applied: true; row: NarrationRow; replaced: MediaFileRef[] } | { applied: false; reason: string };
