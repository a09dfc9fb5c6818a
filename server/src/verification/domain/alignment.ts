/**
 * Word alignment of what was sent against what was heard, and the word accuracy it gives:
 * 1 − (substitutions + deletions + insertions) / words sent, the word error rate's complement.
 *
 * The alignment is jsdiff's `diffArrays` (the `diff` package: maintained, no dependencies, typed),
 * a Myers diff: its time and memory grow with the words times the differences, not with the words
 * squared as a Levenshtein table would (an hour of speech is 9,000 words: 81 million cells). A
 * run of words sent that were not heard, beside a run heard that was not sent, is one place: as
 * many substitutions as the shorter run, and the rest deletions or insertions.
 *
 * Pure: no Strapi, no I/O.
 */
import { diffArrays } from 'diff';

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
  /** 1 − errors / words sent, at least 0; 1 when nothing was sent and nothing heard. */
  wordAccuracy: number;
  differences: Difference[];
}

export function align(sent: readonly string[], heard: readonly string[]): Alignment {
  const differences: Difference[] = [];
  let substitutions = 0;
  let deletions = 0;
  let insertions = 0;
  let s = 0;
  let h = 0;
  let open: Difference | null = null;
  const close = () => {
    if (!open) return;
    const removed = open.sent.to - open.sent.from;
    const added = open.heard.to - open.heard.from;
    substitutions += Math.min(removed, added);
    deletions += Math.max(0, removed - added);
    insertions += Math.max(0, added - removed);
    differences.push(open);
    open = null;
  };
  for (const change of diffArrays([...sent], [...heard])) {
    const count = change.count ?? change.value.length;
    if (!change.added && !change.removed) {
      close();
      s += count;
      h += count;
      continue;
    }
    open ??= { sent: { from: s, to: s }, heard: { from: h, to: h } };
    if (change.removed) open.sent.to = s += count;
    else open.heard.to = h += count;
  }
  close();
  leftmost(differences, sent, heard);
  const errors = substitutions + deletions + insertions;
  const wordAccuracy = sent.length === 0 ? (heard.length === 0 ? 1 : 0) : Math.max(0, 1 - errors / sent.length);
  return { sentWords: sent.length, substitutions, deletions, insertions, wordAccuracy, differences };
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
