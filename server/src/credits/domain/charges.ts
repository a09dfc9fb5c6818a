/**
 * What a narration request costs by the contract's article states (spec 3.1), so the ledger charges
 * what the service charges without being told: `regenerate: false` for a seen articleId re-delivers free.
 */

export interface AcceptedNarration {
  regenerate: boolean;
  /** Characters x the preprocess factor. */
  cost: number;
  /** An earlier ledger entry, or a row that was submitted. */
  askedBefore: boolean;
}

export function chargedOnAcceptance(request: AcceptedNarration): number {
  return request.regenerate || !request.askedBefore ? request.cost : 0;
}

export type ChargeOutcome = 'generated' | 'redelivered' | 'refunded' | 'pending';

/** Without files, a paid generation was refunded. */
export function outcomeOfCallback(charged: number, withFiles: boolean): Exclude<ChargeOutcome, 'pending'> {
  if (charged === 0) return 'redelivered';
  return withFiles ? 'generated' : 'refunded';
}
