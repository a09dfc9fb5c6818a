/**
 * Contract: a part is paid once per key, and the key covers its text, voice and preparation mode but
 * not its position, so a moved part is not paid again and identical parts share one generation.
 */
import { createHash } from 'node:crypto';

import type { NarrationMode } from '../../../../shared/contracts/settings';
import { isPreprocessType, narrationCost, type PreprocessType } from './cost';
import type { PlannedPart } from '../../queue';
import { cutSegments } from '../../text';

export type { NarrationMode };

/** Other implementations of the service read these names, so they stay as they are. */
export interface NarrationModeChoice {
  narrationMode?: NarrationMode;
  /** Left out (or null: cleared in the settings, over the file's): the global `segmentCharacters`. */
  segmentCharacters?: number | null;
}

export function narrationModeOf(type: NarrationModeChoice): NarrationMode {
  return type.narrationMode ?? 'whole';
}

export function segmentCharactersOf(type: NarrationModeChoice, globalSegmentCharacters: number): number {
  return type.segmentCharacters ?? globalSegmentCharacters;
}

export interface SegmentContent {
  text: string;
  voiceId: string;
  preprocessType: PreprocessType;
}

/** Bumping this tag changes every part's key: every segmented article is paid for again. Never for refactoring. */
const SEGMENT_KEY_SCHEME = 'narration-segment/v1';

/** An article's key never holds it (article.ts's articleKey), so a part's key is never an article's. */
const SEGMENT_KEY_SEPARATOR = '~p';

/** 64 bits: a collision, giving one part another's audio, is out of reach, and the key stays short. */
const KEY_HASH_DIGITS = 16;

/** `<article key>~p<16 hex digits>`: stable for the same text, voice and preprocessType wherever the part stands. */
export function segmentKey(articleId: string, { text, voiceId, preprocessType }: SegmentContent): string {
  if (typeof articleId !== 'string' || articleId === '') throw new TypeError('segmentKey: articleId must be a non-empty string');
  if (typeof text !== 'string' || typeof voiceId !== 'string') throw new TypeError('segmentKey: text and voiceId must be strings');
  if (!isPreprocessType(preprocessType)) {
    throw new TypeError(`segmentKey: preprocessType must be "0" or "2", got ${JSON.stringify(preprocessType)}`);
  }
  const encoded = JSON.stringify([SEGMENT_KEY_SCHEME, text, voiceId, preprocessType]);
  const hash = createHash('sha256').update(encoded, 'utf8').digest('hex').slice(0, KEY_HASH_DIGITS);
  return `${articleId}${SEGMENT_KEY_SEPARATOR}${hash}`;
}

export interface PlannedSegment extends PlannedPart {
  /** 0-based (a submission's message counts from 1). */
  index: number;
  text: string;
  voiceId: string;
}

export interface SegmentPlanInput {
  articleId: string;
  text: string;
  voiceId: string;
  preprocessType: PreprocessType;
  maxCharacters: number;
}

export function planSegments({ articleId, text, voiceId, preprocessType, maxCharacters }: SegmentPlanInput): PlannedSegment[] {
  return cutSegments(text, maxCharacters).map((part, index) => {
    const { characters, credits } = narrationCost(part, preprocessType);
    return { index, key: segmentKey(articleId, { text: part, voiceId, preprocessType }), text: part, voiceId, characters, credits };
  });
}
