/**
 * Whether a request may go out under the monthly budget. Pure: the month's spending (pending
 * included) is given, so two instances deciding under the submission lease see the same figure.
 */

export interface Budget {
  /** null: no limit. */
  monthlyCredits: number | null;
  /** Within the site's; null or absent: none of its own. */
  contentTypes?: Readonly<Record<string, number | null>>;
}

export interface MonthSpent {
  total: number;
  /** Previews and transcriptions belong to no content type. */
  byType: Readonly<Record<string, number>>;
}

export interface BudgetedRequest {
  credits: number;
  contentType: string | null;
  letThrough?: boolean;
}

export type BudgetVerdict =
  | { kind: 'within' }
  | {
      kind: 'over';
      limit: 'site' | 'type';
      monthlyCredits: number;
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

export function budgetReason(verdict: Extract<BudgetVerdict, { kind: 'over' }>): string {
  const whose = verdict.limit === 'site' ? "the site's" : "this content type's";
  return (
    `Monthly budget reached: ${verdict.credits.toLocaleString('en-US')} credits would take ${whose} month to ` +
    `${(verdict.spent + verdict.credits).toLocaleString('en-US')} of ${verdict.monthlyCredits.toLocaleString('en-US')}. ` +
    'It waits until the month turns or the budget is raised, and nothing is sent before.'
  );
}
