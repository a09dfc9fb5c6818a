/**
 * Credit cost of a narration (spec section 8, "Character cost"):
 * characters in the text multiplied by 1 for preprocessType "0" (the default, narrate verbatim)
 * or by 2 for preprocessType "2" (AI preprocessing).
 *
 * Pure: no Strapi, no I/O.
 */

import type { CostBreakdown } from '../../../../shared/contracts/narrations';
import { isPreprocessType, type PreprocessType } from '../../../../shared/contracts/settings';

/** The two text preparation modes the service accepts (spec 2.2). Always strings on the wire. */
export { isPreprocessType, type PreprocessType };

const MULTIPLIER_BY_PREPROCESS_TYPE: Readonly<Record<PreprocessType, 1 | 2>> = { '0': 1, '2': 2 };

/** Characters, multiplier and credits of one text: what the settings page's cost preview shows. */
export type NarrationCost = CostBreakdown;

/**
 * Characters are counted as Unicode code points (`[...text].length`), not UTF-16 code units
 * (`text.length`). Arabic letters are one code unit each, but emoji and other astral characters
 * are two code units and would be charged twice by `length`; counting code points matches how
 * our emulator counts, so the estimate shown to editors equals what the emulator deducts.
 * Combining marks (Arabic harakat, emoji modifiers, ZWJ) are code points of their own and count.
 */
export function countCharacters(text: string): number {
  let count = 0;
  // Iterating a string walks code points; a loop avoids building a throw-away array for long articles.
  for (const _codePoint of text) count += 1;
  return count;
}

function multiplierFor(preprocessType: PreprocessType): 1 | 2 {
  // Checked at run time as well because values arrive from settings and request bodies.
  if (!isPreprocessType(preprocessType)) {
    throw new TypeError(`preprocessType must be the string "0" or "2", got ${JSON.stringify(preprocessType)}`);
  }
  return MULTIPLIER_BY_PREPROCESS_TYPE[preprocessType];
}

/** Credits for a known character count; throws on a count that is not a non-negative integer. */
export function estimateCredits(characters: number, preprocessType: PreprocessType): number {
  if (!Number.isSafeInteger(characters) || characters < 0) {
    throw new RangeError(`characters must be a non-negative integer, got ${String(characters)}`);
  }
  return characters * multiplierFor(preprocessType);
}

/** The full breakdown for the exact text that will be sent as `text` to POST /process-text. */
export function narrationCost(text: string, preprocessType: PreprocessType): NarrationCost {
  const multiplier = multiplierFor(preprocessType);
  const characters = countCharacters(text);
  return { characters, multiplier, credits: characters * multiplier };
}
