/**
 * The parts of a segmented narration (docs/segmented-narration.md): each part's key at the service,
 * a version's plan, and what narrating it would pay. Pure: no Strapi, no I/O.
 *
 * Contract: a part is generated (and paid for) once per key, and its key covers exactly what changes
 * its audio: its text, the voice and the text preparation mode (as the fingerprint does for a whole
 * article: fingerprint.ts). Its position is left out, so a part that moves (a paragraph added above
 * it) is not paid again, and two identical parts of one article share one generation.
 */
import { createHash } from 'node:crypto';

import type { NarrationMode } from '../../../../shared/contracts/settings';
import { isPreprocessType, narrationCost, type PreprocessType } from './cost';
import type { PlannedPart } from '../../queue';
import { cutSegments } from '../../text';

export type { NarrationMode };

/**
 * How a content type is narrated (its entry in `contentTypes`, in the config file and the settings
 * alike; other implementations of the service read these names, so they stay as they are).
 */
export interface NarrationModeChoice {
  /** Left out: 'whole', one request per article (today's mode). */
  narrationMode?: NarrationMode;
  /** Left out (or null: cleared in the settings, over the file's): the global `segmentCharacters`. */
  segmentCharacters?: number | null;
}

/** The mode a type is narrated in: whole unless it says segmented. */
export function narrationModeOf(type: NarrationModeChoice): NarrationMode {
  return type.narrationMode ?? 'whole';
}

/** The longest part of a segmented type, in characters: its own, else the global default. */
export function segmentCharactersOf(type: NarrationModeChoice, globalSegmentCharacters: number): number {
  return type.segmentCharacters ?? globalSegmentCharacters;
}

/** What a part's audio depends on. */
export interface SegmentContent {
  /** The part's exact text (one of cutSegments' parts). */
  text: string;
  voiceId: string;
  preprocessType: PreprocessType;
}

/** Bumping this tag changes every part's key: every segmented article is paid for again. Never for refactoring. */
const SEGMENT_KEY_SCHEME = 'narration-segment/v1';

/**
 * Between the article's key and the part's hash. An article's key never holds it (a documentId is
 * letters and digits, a locale letters, digits and hyphens: article.ts's articleKey), so a part's
 * key is never an article's, and the article is read back from it.
 */
const SEGMENT_KEY_SEPARATOR = '~p';

/**
 * Hex digits of the hash in a key: 64 bits. Two different parts of one article (keys are per
 * article) sharing a key, which would give one the other's audio, is then out of reach (about
 * 3 chances in 10^12 for an article that has had 10,000 different parts); the key stays short.
 */
const KEY_HASH_DIGITS = 16;

/**
 * A part's `articleId` at the service: `<article key>~p<16 hex digits>`, e.g. `abc123-ar~p0f3c9a1e5b7d2468`.
 * ASCII, stable, and the same for the same text, voice and preprocessType wherever the part stands.
 * The hash is SHA-256 over a JSON array of the parts (unambiguous, as in fingerprint.ts), cut short.
 */
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

const SEGMENT_KEY = new RegExp(`^(.+)${SEGMENT_KEY_SEPARATOR}[0-9a-f]{${KEY_HASH_DIGITS}}$`);

/** The article's key a part's key was made from (a callback's `articleId`), or null for any other key. */
export function articleIdOfSegmentKey(key: string): string | null {
  return SEGMENT_KEY.exec(key)?.[1] ?? null;
}

/** One part of a version, in reading order. */
export interface PlannedSegment extends PlannedPart {
  /** 0-based position in the article (a submission's message counts from 1). */
  index: number;
  /** The exact text sent for this part. */
  text: string;
  /** The voice that reads it: the article's, or its passages' (docs/passage-voices.md). */
  voiceId: string;
}

export interface SegmentPlanInput {
  /** The article's key (describeArticle's `articleId`). */
  articleId: string;
  /** The narrated text (describeArticle's `text`: lexicon, skipped blocks, intro and outro applied). */
  text: string;
  voiceId: string;
  preprocessType: PreprocessType;
  /** The type's segmentCharacters (segmentCharactersOf). */
  maxCharacters: number;
}

/** A version's parts: the text cut (text/segments.ts), each part with its key and what it costs. */
export function planSegments({ articleId, text, voiceId, preprocessType, maxCharacters }: SegmentPlanInput): PlannedSegment[] {
  return cutSegments(text, maxCharacters).map((part, index) => {
    const { characters, credits } = narrationCost(part, preprocessType);
    return { index, key: segmentKey(articleId, { text: part, voiceId, preprocessType }), text: part, voiceId, characters, credits };
  });
}

/** What narrating a plan pays: "2 of 18 parts changed: 640 credits". */
export interface SegmentChanges {
  /** Parts of the plan, each distinct key once (two identical parts are one generation). */
  total: number;
  /** Of these, the parts whose key is not available: the ones generated (and paid) again. */
  changed: number;
  /** Characters and credits of the changed parts: what is paid. */
  characters: number;
  credits: number;
}

/**
 * The parts of a plan to be paid for: those whose key is not among `availableKeys` (the keys of the
 * stored audio, states/segment-map.ts's storedKeys, and any generated at the service and not yet joined).
 * A key repeated in the plan is counted, and paid, once.
 */
export function changedSegments(plan: readonly PlannedPart[], availableKeys: ReadonlySet<string>): SegmentChanges {
  const distinct = new Map<string, PlannedPart>();
  for (const part of plan) if (!distinct.has(part.key)) distinct.set(part.key, part);
  const changes: SegmentChanges = { total: distinct.size, changed: 0, characters: 0, credits: 0 };
  for (const part of distinct.values()) {
    if (availableKeys.has(part.key)) continue;
    changes.changed += 1;
    changes.characters += part.characters;
    changes.credits += part.credits;
  }
  return changes;
}
