/** Credits: characters times 1 for preprocessType "0", 2 for "2" (spec section 8). */

import type { CostBreakdown } from '../../../../shared/contracts/narrations';
import { isPreprocessType, type PreprocessType } from '../../../../shared/contracts/settings';

/** Always strings on the wire (spec 2.2). */
export { isPreprocessType, type PreprocessType };

const MULTIPLIER_BY_PREPROCESS_TYPE: Readonly<Record<PreprocessType, 1 | 2>> = { '0': 1, '2': 2 };

export type NarrationCost = CostBreakdown;

/**
 * Code points, not UTF-16 units: an emoji would be charged twice by `length`. Matches the emulator,
 * so the estimate equals what is deducted. Combining marks count as their own code points.
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

export function narrationCost(text: string, preprocessType: PreprocessType): NarrationCost {
  const multiplier = multiplierFor(preprocessType);
  const characters = countCharacters(text);
  return { characters, multiplier, credits: characters * multiplier };
}
