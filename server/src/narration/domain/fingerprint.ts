/**
 * Contract: an article needs a new (paid) generation if and only if its fingerprint changes. It covers
 * the text, the voice and the preparation mode, never metadata, so editing those costs nothing.
 */
import { createHash } from 'node:crypto';

import { isPreprocessType, type PreprocessType } from './cost';

export interface NarrationFingerprintInput {
  text: string;
  voiceId: string;
  preprocessType: PreprocessType;
  /** Left out for a whole article, so its fingerprint stays what it was (nothing narrated again on upgrade). */
  segmentCharacters?: number;
  /** Each run of one voice as `<start>-<end>:<voiceId>`; left out when one voice reads it all. */
  voiceRuns?: readonly string[];
}

/** Bumping this tag re-narrates every article, paid: only when the encoded parts' meaning changes. */
const FINGERPRINT_SCHEME = 'narration-fingerprint/v1';

/** Over a JSON array: unambiguous, unlike a plain join. The text is hashed as given, as it is paid for. */
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
