/**
 * What a narration request costs, by the contract's table of article states (spec 3.1), so that the
 * plugin's ledger charges what the service charges without being told. Pure.
 *
 * The service charges a request that starts a generation: one for an articleId it has never seen,
 * or one asking `regenerate: true` of an article that is not being generated (that one is refused
 * with 409, and nothing is accepted). A request with `regenerate: false` for an articleId it has
 * seen starts nothing: it re-delivers what it has, generated or failed, free. A generation that
 * ends without audio, fails, or is not delivered is refunded, and its callback (when one comes)
 * brings no files.
 */

export interface AcceptedNarration {
  /** The request asked `regenerate: true`. */
  regenerate: boolean;
  /** Characters x the preprocess factor: what a generation of this text costs. */
  cost: number;
  /** The plugin asked the service for this articleId before (an earlier entry, or a row that was submitted). */
  askedBefore: boolean;
}

/** Credits the service took when it accepted the request (202). */
export function chargedOnAcceptance(request: AcceptedNarration): number {
  return request.regenerate || !request.askedBefore ? request.cost : 0;
}

/** How a charged or free request ended, as the usage view counts it apart. */
export type ChargeOutcome = 'generated' | 'redelivered' | 'refunded' | 'pending';

/**
 * The outcome of an accepted request once its callback came: with files, what it paid was for a
 * generation (or nothing, a re-delivery); without, a paid generation was refunded.
 */
export function outcomeOfCallback(charged: number, withFiles: boolean): Exclude<ChargeOutcome, 'pending'> {
  if (charged === 0) return 'redelivered';
  return withFiles ? 'generated' : 'refunded';
}

/** The credits an outcome leaves spent: a refund gives them back. */
export function creditsSpent(charged: number, outcome: ChargeOutcome): number {
  return outcome === 'refunded' ? 0 : charged;
}
