import type { EstimateResponse, NarrationView } from '../../../shared/contracts/narrations';

/**
 * What editors are told of a narration in parts (docs/segmented-narration.md): its progress, what
 * narrating it would pay, and which part a failure is about. Messages as descriptors (an id under
 * the plugin's prefix, the English default, the values), so that the wording is unit-tested
 * without a browser; numbers come formatted by the caller, in the admin's language.
 */

export interface MessageDescriptor {
  id: string;
  defaultMessage: string;
  values: Record<string, string | number>;
}

type FormatNumber = (value: number) => string;

/** The messages below; their ids are translation keys. `total` is a plural argument: a plain number. */
export const PARTS_MESSAGES = {
  ready: { id: 'parts.ready', defaultMessage: '{ready} of {total, plural, one {# part} other {# parts}} ready' },
  joining: {
    id: 'parts.joining',
    defaultMessage: '{total, plural, one {# part ready} other {All # parts ready}}: joining them into one file',
  },
  stored: { id: 'parts.stored', defaultMessage: '{total, plural, one {Narrated in # part} other {Narrated in # parts}}' },
  changed: { id: 'parts.changed', defaultMessage: '{changed} of {total, plural, one {# part} other {# parts}} changed' },
  changedCost: {
    id: 'parts.changedCost',
    defaultMessage: '{changed} of {total, plural, one {# part} other {# parts}} changed: {credits} credits',
  },
} as const;

/**
 * The panel's line on a segmented narration's parts; null in whole mode, and where the parts say
 * nothing new: a queued article has no plan yet for its new version, a cancelled one none to go on.
 */
export function partsProgressMessage(
  row: Pick<NarrationView, 'status' | 'parts'> | null | undefined,
  formatNumber: FormatNumber
): MessageDescriptor | null {
  const parts = row?.parts;
  if (!row || !parts || parts.total <= 0) return null;
  switch (row.status) {
    case 'awaiting_parts':
    case 'failed':
      // Failed: the parts ready stay, so a retry pays only for the others.
      return { ...PARTS_MESSAGES.ready, values: { ready: formatNumber(parts.ready), total: parts.total } };
    case 'storing':
      return { ...PARTS_MESSAGES.joining, values: { total: parts.total } };
    case 'completed':
      return { ...PARTS_MESSAGES.stored, values: { total: parts.total } };
    default:
      return null;
  }
}

/**
 * How many of a version's parts changed, "2 of 18 parts changed", with what narrating it would pay
 * (only those parts: "2 of 18 parts changed: 640 credits"); null for a type narrated whole.
 */
export function partsChangedMessage(
  estimate: Pick<EstimateResponse, 'parts' | 'credits'>,
  formatNumber: FormatNumber,
  { withCredits }: { withCredits: boolean }
): MessageDescriptor | null {
  if (!estimate.parts) return null;
  const values = { changed: formatNumber(estimate.parts.changed), total: estimate.parts.total };
  return withCredits
    ? { ...PARTS_MESSAGES.changedCost, values: { ...values, credits: formatNumber(estimate.credits) } }
    : { ...PARTS_MESSAGES.changed, values };
}

/** The regenerate dialog's cost. Their ids are translation keys. */
export const REGENERATE_MESSAGES = {
  cost: { id: 'regenerate.cost', defaultMessage: 'Cost: {credits} credits ({characters} characters × {multiplier}).' },
  partsCost: {
    id: 'regenerate.partsCost',
    defaultMessage:
      '{total, plural, one {Its # part is} other {All # parts are}} generated again and paid, unchanged ones included: {credits} credits ({characters} characters × {multiplier}).',
  },
  costUnknown: { id: 'regenerate.costUnknown', defaultMessage: 'The cost could not be estimated.' },
} as const;

/**
 * What "Regenerate" would pay, as its dialog says it: a fresh take of the whole text, so in parts
 * every part (unchanged ones included), not the changed parts a publish pays ("cost shown is cost
 * paid"). The server's `regeneration` figures; unknown without an estimate.
 */
export function regenerateCostMessage(
  estimate: Pick<EstimateResponse, 'parts' | 'preprocessType' | 'regeneration'> | undefined,
  formatNumber: FormatNumber
): MessageDescriptor {
  if (!estimate?.regeneration) return { ...REGENERATE_MESSAGES.costUnknown, values: {} };
  const values = {
    credits: formatNumber(estimate.regeneration.credits),
    characters: formatNumber(estimate.regeneration.characters),
    multiplier: estimate.preprocessType === '2' ? 2 : 1,
  };
  return estimate.parts
    ? { ...REGENERATE_MESSAGES.partsCost, values: { ...values, total: estimate.parts.total } }
    : { ...REGENERATE_MESSAGES.cost, values };
}

/** A failure the server put on one part of a segmented article: "Part 3 of 18: <reason>". */
export interface PartFailure {
  part: number;
  total: number;
  /** The server's own text after the part. */
  reason: string;
}

const PART_PREFIX = /^Part (\d+) of (\d+): ([\s\S]*)$/;

/** The part a failure's text names, or null for an article's own failure. */
export function failedPart(lastError: string | null | undefined): PartFailure | null {
  const match = lastError ? PART_PREFIX.exec(lastError) : null;
  if (!match) return null;
  return { part: Number(match[1]), total: Number(match[2]), reason: match[3] };
}
