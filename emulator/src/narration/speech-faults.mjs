/**
 * Injected differences between the text sent for narration and what its audio says (the
 * dropSentence and replaceWord injections). They change the sentences before synthesis, so the
 * audio, its SRT and the transcript STT gives for it all say the altered text: a client that checks
 * a narration by transcribing it has something real to find.
 */

/**
 * @typedef {{ kind: 'dropSentence', sentence: number, text: string }
 *   | { kind: 'replaceWord', word: string, with: string, sentence: number | null }} SpeechFault
 *   what was done; `sentence` is a 0-based index into the text's sentences (null: the word is not in the text)
 */

/**
 * @param {string[]} sentences  the text split as for narration
 * @param {{ dropSentence?: { sentence: number } | null, replaceWord?: { word: string, with: string } | null }} faults
 * @returns {{ sentences: string[], applied: SpeechFault[] }}
 */
export function applySpeechFaults(sentences, { dropSentence = null, replaceWord = null }) {
  let said = [...sentences];
  /** @type {SpeechFault[]} */
  const applied = [];
  // The word first: "first occurrence in the text" should not depend on which sentence is dropped.
  if (replaceWord) {
    const at = said.findIndex((sentence) => wordPattern(replaceWord.word).test(sentence));
    if (at !== -1) said[at] = said[at].replace(wordPattern(replaceWord.word), () => replaceWord.with);
    applied.push({ kind: 'replaceWord', word: replaceWord.word, with: replaceWord.with, sentence: at === -1 ? null : at });
  }
  if (dropSentence && said.length > 0) {
    const at = Math.min(dropSentence.sentence, said.length - 1);
    applied.push({ kind: 'dropSentence', sentence: at, text: said[at] });
    said = said.filter((_, i) => i !== at);
  }
  return { sentences: said, applied };
}

// Letters, combining marks (Arabic harakat) and digits make up a word; \b is ASCII-only in JS.
const WORD_CHAR = '[\\p{L}\\p{M}\\p{N}_]';

/** The first whole-word, case-insensitive occurrence of `word`. @param {string} word */
function wordPattern(word) {
  const escaped = word.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`(?<!${WORD_CHAR})${escaped}(?!${WORD_CHAR})`, 'iu');
}
