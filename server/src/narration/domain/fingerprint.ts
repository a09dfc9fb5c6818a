/**
 * The narration fingerprint decides when an article must be narrated again.
 *
 * Contract: an article needs a new (paid) generation if and only if its fingerprint changes.
 * The fingerprint covers exactly what changes the produced audio: the narrated text, the voice
 * and the text preparation mode. Anything else (title metadata sent as postData.name, callback
 * URL, articleId) is deliberately left out so that editing it never costs credits.
 *
 * Pure: no Strapi, no I/O.
 */
import { createHash } from 'node:crypto';

import { isPreprocessType, type PreprocessType } from './cost';

export interface NarrationFingerprintInput {
  /** The exact text sent to the service (describeArticle's `text`). */
  text: string;
  voiceId: string;
  preprocessType: PreprocessType;
  /**
   * A segmented version: the longest part. Narrated in parts, the same text is another narration
   * (switching a type's mode, or its part size, is a change); left out for a whole article, whose
   * fingerprint is then what it always was (no article is narrated again after an upgrade).
   */
  segmentCharacters?: number;
  /**
   * Passages read in other voices (docs/passage-voices.md): each run of one voice, as
   * `<start>-<end>:<voiceId>` offsets in the text. Left out when one voice reads it all: its
   * fingerprint is then what it was without passage voices.
   */
  voiceRuns?: readonly string[];
}

/**
 * Bumping this tag re-narrates every article (a paid operation for each), so change it only
 * when the meaning of the encoded parts changes, never for refactoring.
 */
const FINGERPRINT_SCHEME = 'narration-fingerprint/v1';

/**
 * SHA-256 (lowercase hex) over a JSON array of the parts. JSON quotes and escapes every string,
 * so the encoding is unambiguous: ('a|b', 'c') and ('a', 'b|c') encode differently, which a
 * plain join with a separator would not guarantee. The text is hashed as given (no trimming or
 * normalisation here) so that the fingerprint describes precisely what is paid for.
 */
export function narrationFingerprint({ text, voiceId, preprocessType, segmentCharacters, voiceRuns }: NarrationFingerprintInput): string {
  if (typeof text !== 'string' || typeof voiceId !== 'string') {
    throw new TypeError('narrationFingerprint: text and voiceId must be strings');
  }
  if (!isPreprocessType(preprocessType)) {
    throw new TypeError(`narrationFingerprint: preprocessType must be "0" or "2", got ${JSON.stringify(preprocessType)}`);
  }
  const parts = [
    FINGERPRINT_SCHEME,
    text,
    voiceId,
    preprocessType,
    ...(segmentCharacters === undefined ? [] : ['segmented', segmentCharacters]),
    ...(voiceRuns === undefined ? [] : ['voices', ...voiceRuns]),
  ];
  const encoded = JSON.stringify(parts);
  return createHash('sha256').update(encoded, 'utf8').digest('hex');
}
