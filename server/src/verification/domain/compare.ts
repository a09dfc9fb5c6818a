/**
 * A narration's check: the text sent to the service against the transcript of its audio. Gives
 * the word accuracy and each place where they differ, with what was sent and what was heard as
 * written, and where in the audio it is: a heard word's time is read from its segment, spread
 * evenly over the segment's words; a place where nothing was heard is where the previous heard
 * word ends (the start of the audio when none came before).
 *
 * Pure: no Strapi, no I/O.
 */
import { align } from './alignment';
import { wordsOf, type Words } from './words';

/** A timed piece of the transcript, as the service's speech to text returns it (seconds). */
export interface HeardSegment {
  start: number;
  end: number;
  text: string;
}

export interface Place {
  /** What was sent there, as written ('' where the audio says words that were not sent). */
  expected: string;
  /** What the transcript says there ('' where words sent were not heard). */
  heard: string;
  /** Where it is in the audio, in seconds (milliseconds precision). */
  atSeconds: number;
}

export interface Comparison {
  /**
   * Past what the minimum accuracy allows, the transcript is not aligned: its one place, and the
   * counts, are the words from the first that differs to the last, and the accuracy is null (below
   * the minimum, by how much unknown) unless that place only lost words or only added some.
   */
  wordAccuracy: number | null;
  sentWords: number;
  heardWords: number;
  substitutions: number;
  deletions: number;
  insertions: number;
  /** How many places differ; the first MAX_PLACES of them are listed. */
  placeCount: number;
  places: Place[];
}

/** Places listed at most: a narration whose audio says something else entirely is one finding, not thousands. */
export const MAX_PLACES = 50;

interface HeardWords extends Words {
  /** Each word's start and end in the audio, seconds. */
  times: Array<{ start: number; end: number }>;
}

function heardWordsOf(segments: readonly HeardSegment[], language: string | null): HeardWords {
  const heard: HeardWords = { words: [], tokens: [], times: [] };
  for (const segment of segments) {
    const { words, tokens } = wordsOf(segment.text, language);
    const step = words.length > 0 ? Math.max(0, segment.end - segment.start) / words.length : 0;
    words.forEach((word, index) => {
      heard.words.push({ norm: word.norm, token: word.token + heard.tokens.length });
      heard.times.push({ start: segment.start + step * index, end: segment.start + step * (index + 1) });
    });
    heard.tokens.push(...tokens);
  }
  return heard;
}

/** The written tokens behind words `[from, to)`, each once, joined by spaces. */
function written({ words, tokens }: Words, from: number, to: number): string {
  const seen: number[] = [];
  for (let index = from; index < to; index += 1) if (seen.at(-1) !== words[index].token) seen.push(words[index].token);
  return seen.map((token) => tokens[token]).join(' ');
}

const milliseconds = (seconds: number) => Math.round(seconds * 1000) / 1000;

/** `minWordAccuracy`, the check's, bounds the alignment (see align); 0 does not. */
export function compareTranscript(
  sentText: string,
  segments: readonly HeardSegment[],
  language: string | null,
  minWordAccuracy = 0
): Comparison {
  const sent = wordsOf(sentText, language);
  const heard = heardWordsOf(segments, language);
  const alignment = align(
    sent.words.map((word) => word.norm),
    heard.words.map((word) => word.norm),
    minWordAccuracy
  );
  const places = alignment.differences.slice(0, MAX_PLACES).map((difference): Place => {
    const at =
      difference.heard.to > difference.heard.from
        ? heard.times[difference.heard.from].start
        : (heard.times[difference.heard.from - 1]?.end ?? 0);
    return {
      expected: written(sent, difference.sent.from, difference.sent.to),
      heard: written(heard, difference.heard.from, difference.heard.to),
      atSeconds: milliseconds(at),
    };
  });
  return {
    wordAccuracy: alignment.wordAccuracy,
    sentWords: alignment.sentWords,
    heardWords: heard.words.length,
    substitutions: alignment.substitutions,
    deletions: alignment.deletions,
    insertions: alignment.insertions,
    placeCount: alignment.differences.length,
    places,
  };
}
