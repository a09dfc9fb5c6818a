/** Text rules shared by narration and TTS: character counting and sentence splitting. */

/** Characters as the service charges them: Unicode code points. @param {string} text */
export function countCharacters(text) {
  return [...text].length;
}

// Sentence ends: Latin and Arabic punctuation (؟ question mark, ؛ semicolon, ۔ full stop), ellipsis.
const SENTENCE_END = /[.!?؟؛۔…]+["'”’»)\]]*(?=\s|$)/gu;
// Places where an over-long sentence may be cut: after a comma (Latin or Arabic), else at a space.
const SOFT_BREAK = /[,،:;]\s/gu;

/**
 * Splits text into the sentences that become SRT cues. Paragraph breaks end a sentence too;
 * sentences longer than `maxChars` are cut at a comma or a space so one cue stays readable.
 * @param {string} text
 * @param {number} maxChars
 * @returns {string[]}
 */
export function splitIntoSentences(text, maxChars) {
  const sentences = [];
  for (const paragraph of text.split(/\n\s*\n|\r\n\s*\r\n|\n/)) {
    const flat = paragraph.replace(/\s+/g, ' ').trim();
    if (!flat) continue;
    let start = 0;
    for (const match of flat.matchAll(SENTENCE_END)) {
      const end = /** @type {number} */ (match.index) + match[0].length;
      sentences.push(flat.slice(start, end).trim());
      start = end;
    }
    sentences.push(flat.slice(start).trim());
  }
  return sentences.filter(Boolean).flatMap((s) => cutLongSentence(s, maxChars));
}

/** @param {string} sentence @param {number} maxChars @returns {string[]} */
function cutLongSentence(sentence, maxChars) {
  const pieces = [];
  let rest = sentence;
  while (countCharacters(rest) > maxChars) {
    const window = [...rest].slice(0, maxChars).join('');
    let cut = -1;
    for (const m of window.matchAll(SOFT_BREAK)) cut = /** @type {number} */ (m.index) + 1;
    if (cut < window.length / 3) cut = window.lastIndexOf(' ');
    if (cut <= 0) cut = window.length; // one enormous word: hard cut
    pieces.push(rest.slice(0, cut).trim());
    rest = rest.slice(cut).trim();
  }
  if (rest) pieces.push(rest);
  return pieces.filter(Boolean);
}
