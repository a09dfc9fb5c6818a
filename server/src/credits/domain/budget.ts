/**
 * Whether a request may go out under the site's monthly credit budget. Pure: what the
 * month has spent so far is given (the ledger's entries of the calendar month, the credits of
 * requests accepted and not yet settled included), so two instances deciding under the submission
 * lease see the same figure.
 *
 * A request that costs nothing (a re-delivery asked with `regenerate: false` of a result the
 * service has) is never held. A request an editor with the settings permission let through is not
 * held either. Otherwise the request waits, before anything is sent, when it would take the month
 * over the site's budget or over its content type's own.
 */

export interface Budget {
  /** Credits a calendar month may spend; null: no limit. */
  monthlyCredits: number | null;
  /** A content type's own monthly limit, within the site's; null or absent: none of its own. */
  contentTypes?: Readonly<Record<string, number | null>>;
}

export interface MonthSpent {
  /** Every credit the month has charged or holds for accepted requests. */
  total: number;
  /** The same, by content type (previews and transcriptions belong to none). */
  byType: Readonly<Record<string, number>>;
}

export interface BudgetedRequest {
  /** What it will charge if the service generates it. */
  credits: number;
  /** The type of the narrated entry; null for a voice preview or a transcription. */
  contentType: string | null;
  /** Let through by an editor with the settings permission, this month, over the budget. */
  letThrough?: boolean;
}

export type BudgetVerdict =
  | { kind: 'within' }
  | {
      kind: 'over';
      /** Which limit it would pass: the site's, or its content type's. */
      limit: 'site' | 'type';
      monthlyCredits: number;
      /** What the month has spent against that limit. */
      spent: number;
      credits: number;
    };

export function budgetVerdict(budget: Budget, spent: MonthSpent, request: BudgetedRequest): BudgetVerdict {
  if (request.credits <= 0 || request.letThrough) return { kind: 'within' };
  const { monthlyCredits } = budget;
  if (monthlyCredits !== null && spent.total + request.credits > monthlyCredits) {
    return { kind: 'over', limit: 'site', monthlyCredits, spent: spent.total, credits: request.credits };
  }
  const typeLimit = request.contentType === null ? null : (budget.contentTypes?.[request.contentType] ?? null);
  if (typeLimit !== null) {
    const typeSpent = spent.byType[request.contentType!] ?? 0;
    if (typeSpent + request.credits > typeLimit) {
      return { kind: 'over', limit: 'type', monthlyCredits: typeLimit, spent: typeSpent, credits: request.credits };
    }
  }
  return { kind: 'within' };
}

/** Why a request waits, as the badge, the panel and Settings say it. */
export function budgetReason(verdict: Extract<BudgetVerdict, { kind: 'over' }>): string {
  const whose = verdict.limit === 'site' ? "the site's" : "this content type's";
  return (
    `Monthly budget reached: ${verdict.credits.toLocaleString('en-US')} credits would take ${whose} month to ` +
    `${(verdict.spent + verdict.credits).toLocaleString('en-US')} of ${verdict.monthlyCredits.toLocaleString('en-US')}. ` +
    'It waits until the month turns or the budget is raised, and nothing is sent before.'
  );
}
