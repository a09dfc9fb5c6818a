/**
 * Word alignment of what was sent against what was heard, and the word accuracy it gives:
 * 1 − (substitutions + deletions + insertions) / words sent, the word error rate's complement.
 *
 * The alignment is jsdiff's `diffArrays` (the `diff` package: maintained, no dependencies, typed),
 * a Myers diff: its time and memory grow with the words times the differences, not with the words
 * squared as a Levenshtein table would (an hour of speech is 9,000 words: 81 million cells). It
 * goes no further than the differences a check reaching the minimum word accuracy could have: a
 * transcript that differs throughout would take the words squared again. A run of words sent that
 * were not heard, beside a run heard that was not sent, is one place: as many substitutions as the
 * shorter run, and the rest deletions or insertions.
 *
 * Pure: no Strapi, no I/O.
 */
import { diffArrays, type ArrayChange } from 'diff';

/** A place where the words heard differ from the words sent: `[from, to)` ranges of each. */
export interface Difference {
  sent: { from: number; to: number };
  heard: { from: number; to: number };
}

export interface Alignment {
  /** Words sent. */
  sentWords: number;
  substitutions: number;
  deletions: number;
  insertions: number;
  /**
   * 1 − errors / words sent, at least 0; 1 when nothing was sent and nothing heard. Past what the
   * minimum accuracy allows, the words from the first that differs to the last are one difference,
   * and the accuracy is below the minimum: null, by how much not known, unless that difference is
   * only words lost or only words added.
   */
  wordAccuracy: number | null;
  differences: Difference[];
}

/**
 * `minWordAccuracy` bounds the work: past the edit length a check reaching it could have, the
 * alignment stops (0, the default, allows any and never stops).
 */
export function align(sent: readonly string[], heard: readonly string[], minWordAccuracy = 0): Alignment {
  // A difference of r words sent and a heard costs max(r, a) errors, so errors ≥ max(n, m) − c for c words in common:
  // the edit length n + m − 2c is at most 2 × errors − |n − m|, and a longer one cannot reach the minimum.
  // Short of MIN_EDIT_LENGTH the bound costs more than it saves: a short text keeps its places.
  const bound = 2 * mostErrorsAllowed(sent.length, minWordAccuracy) - Math.abs(sent.length - heard.length);
  const maxEditLength = Math.max(MIN_EDIT_LENGTH, bound);
  const changes = diffArrays([...sent], [...heard], { maxEditLength });
  const differences = changes ? differencesOf(changes) : [differingSpan(sent, heard)];
  leftmost(differences, sent, heard);
  let substitutions = 0;
  let deletions = 0;
  let insertions = 0;
  for (const difference of differences) {
    const removed = difference.sent.to - difference.sent.from;
    const added = difference.heard.to - difference.heard.from;
    substitutions += Math.min(removed, added);
    deletions += Math.max(0, removed - added);
    insertions += Math.max(0, added - removed);
  }
  // A difference only lost or only added, between words in common, is itself the shortest alignment.
  const accuracyKnown = changes !== undefined || substitutions === 0;
  const wordAccuracy = accuracyKnown ? accuracyOf(substitutions + deletions + insertions, sent.length) : null;
  return { sentWords: sent.length, substitutions, deletions, insertions, wordAccuracy, differences };
}

/** Edits always aligned, whatever the minimum: a few milliseconds even against 10,000 words. */
const MIN_EDIT_LENGTH = 200;

function accuracyOf(errors: number, sentWords: number): number {
  return sentWords === 0 ? (errors === 0 ? 1 : 0) : Math.max(0, 1 - errors / sentWords);
}

/** The most errors `sentWords` words may have and still reach `minWordAccuracy`; Infinity when any may. */
function mostErrorsAllowed(sentWords: number, minWordAccuracy: number): number {
  if (minWordAccuracy <= 0) return Infinity;
  let errors = Math.floor((1 - minWordAccuracy) * sentWords);
  // The product may round either way: settle it by the accuracy the verdict compares (10 words at 0.9 allow 1 error).
  while (accuracyOf(errors + 1, sentWords) >= minWordAccuracy) errors += 1;
  while (errors > 0 && accuracyOf(errors, sentWords) < minWordAccuracy) errors -= 1;
  return errors;
}

function differencesOf(changes: ReadonlyArray<ArrayChange<string>>): Difference[] {
  const differences: Difference[] = [];
  let s = 0;
  let h = 0;
  let open: Difference | null = null;
  for (const change of changes) {
    const count = change.count ?? change.value.length;
    if (!change.added && !change.removed) {
      if (open) differences.push(open);
      open = null;
      s += count;
      h += count;
      continue;
    }
    open ??= { sent: { from: s, to: s }, heard: { from: h, to: h } };
    if (change.removed) open.sent.to = s += count;
    else open.heard.to = h += count;
  }
  if (open) differences.push(open);
  return differences;
}

/** The words between the common start and the common end, as one difference: what is known to differ without an alignment. */
function differingSpan(sent: readonly string[], heard: readonly string[]): Difference {
  let start = 0;
  while (start < sent.length && start < heard.length && sent[start] === heard[start]) start += 1;
  let end = 0;
  while (start + end < sent.length && start + end < heard.length && sent.at(-1 - end) === heard.at(-1 - end)) end += 1;
  return { sent: { from: start, to: sent.length - end }, heard: { from: start, to: heard.length - end } };
}

/**
 * Moves each run only lost (or only added) as far back as it can go: "stays. The second goes. The
 * third" heard as "stays. The third" loses "The second goes", not "second goes. The", which
 * counts the same. The run never crosses the difference before it.
 */
function leftmost(differences: Difference[], sent: readonly string[], heard: readonly string[]) {
  let sentFloor = 0;
  let heardFloor = 0;
  for (const difference of differences) {
    const lost = difference.heard.from === difference.heard.to;
    const added = difference.sent.from === difference.sent.to;
    const [words, run] = lost ? [sent, difference.sent] : [heard, difference.heard];
    const floor = lost ? sentFloor : heardFloor;
    while ((lost || added) && run.from > floor && run.to > run.from && words[run.from - 1] === words[run.to - 1]) {
      difference.sent.from -= 1;
      difference.sent.to -= 1;
      difference.heard.from -= 1;
      difference.heard.to -= 1;
    }
    sentFloor = difference.sent.to;
    heardFloor = difference.heard.to;
  }
}
