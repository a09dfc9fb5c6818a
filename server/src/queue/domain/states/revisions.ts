/** The stored versions of a narration, newest first: when, why, and which passages the new audio reads anew. */
import type { RevisionCause, RevisionSpan } from '../../../../../shared/contracts/narrations';
import type { StoredPart } from './segment-map';
import type { NarrationState, StoredRevision } from './types';

export const MAX_REVISIONS = 20;

type RevisionState = Pick<
  NarrationState,
  'firstCompletedAt' | 'narratedFingerprint' | 'submittedFingerprint' | 'stores' | 'cause' | 'segments' | 'freshParts' | 'revisions'
>;

export function revisionCause(state: RevisionState): RevisionCause {
  if (!state.firstCompletedAt && !state.stores) return 'first';
  if (state.cause === 'verification') return 'verification';
  return state.narratedFingerprint === state.submittedFingerprint ? 'regenerate' : 'edit';
}

const seconds = (ms: number) => Math.round(ms) / 1000;

/** The parts of `next` that are neither in `previous` nor kept from it, neighbours joined; none when every part is new. */
export function changedSpans(
  previous: readonly StoredPart[] | null | undefined,
  next: readonly StoredPart[] | null | undefined,
  freshKeys: readonly string[]
): { spans: RevisionSpan[]; passages: number } {
  if (!previous?.length || !next?.length) return { spans: [], passages: 0 };
  const kept = new Set(previous.map((part) => part.key));
  for (const key of freshKeys) kept.delete(key);
  const changed = next.map((part) => !kept.has(part.key));
  const passages = changed.filter(Boolean).length;
  if (passages === next.length) return { spans: [], passages: 0 };
  const spans: RevisionSpan[] = [];
  next.forEach((part, index) => {
    if (!changed[index]) return;
    const start = seconds(part.offsetMs);
    const end = seconds(part.offsetMs + part.durationSeconds * 1000);
    const last = spans[spans.length - 1];
    if (last && changed[index - 1]) last.end = end;
    else spans.push({ start, end });
  });
  return { spans, passages };
}

/** The row's revisions once `next` is stored at `at`. */
export function revisionsAfterStore(state: RevisionState, next: readonly StoredPart[] | null | undefined, at: Date): StoredRevision[] {
  // A first store has no stored parts to differ from: its spans are none.
  const { spans, passages } = changedSpans(state.segments, next, state.freshParts ?? []);
  const revision: StoredRevision = { at: at.toISOString(), cause: revisionCause(state), changed: spans, passages };
  return [revision, ...(state.revisions ?? [])].slice(0, MAX_REVISIONS);
}
