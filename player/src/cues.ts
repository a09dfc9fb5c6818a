/** Which cue is playing at a time. Pure; cues sorted by start (parseVtt's order). */

interface Timed {
  start: number;
  end: number;
}

/** Index of the last cue that started at or before `time`, -1 before the first one. */
export function lastStartedIndex(cues: readonly Timed[], time: number): number {
  let low = 0;
  let high = cues.length - 1;
  let found = -1;
  while (low <= high) {
    const middle = (low + high) >> 1;
    if (cues[middle].start <= time) {
      found = middle;
      low = middle + 1;
    } else high = middle - 1;
  }
  return found;
}

/**
 * Index of the cue being read at `time`, -1 when none is (before the first, in a silence between
 * two, after the last). A cue ends just before its `end`, where the next one may start.
 */
export function activeCueIndex(cues: readonly Timed[], time: number): number {
  const index = lastStartedIndex(cues, time);
  return index >= 0 && time < cues[index].end ? index : -1;
}
