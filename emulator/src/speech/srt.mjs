/** SRT (SubRip) output. */

/** @typedef {{ start: number, end: number, text: string }} Cue times in seconds */

/** 00:01:02,345 @param {number} seconds */
export function srtTimestamp(seconds) {
  const totalMs = Math.round(seconds * 1000);
  const ms = totalMs % 1000;
  const s = Math.floor(totalMs / 1000) % 60;
  const m = Math.floor(totalMs / 60000) % 60;
  const h = Math.floor(totalMs / 3600000);
  const pad = (/** @type {number} */ n, w = 2) => String(n).padStart(w, '0');
  return `${pad(h)}:${pad(m)}:${pad(s)},${pad(ms, 3)}`;
}

/** @param {Cue[]} cues @returns {string} */
export function formatSrt(cues) {
  return cues.map((cue, i) => `${i + 1}\n${srtTimestamp(cue.start)} --> ${srtTimestamp(cue.end)}\n${cue.text}\n`).join('\n');
}
