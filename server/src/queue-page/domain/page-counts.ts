import { QUEUE_PAGE_STATUSES, type QueueCounts, type QueuePageStatus, type QueueSummaryResponse } from '../../../../shared/contracts/queue';
import { BUDGET_REACHED } from '../../../../shared/contracts/usage';

/** The row statuses the page shows: stored and cancelled narrations have left the queue. */
export const WAITING_ROW_STATUSES = ['queued', 'submitting', 'awaiting_callback', 'awaiting_parts', 'storing'] as const;
export const PAGE_ROW_STATUSES = [...WAITING_ROW_STATUSES, 'failed'] as const;

/** How many rows of one type and locale are in one status, with one error code. */
export interface StatusCell {
  contentType: string;
  locale: string | null;
  status: string;
  code: string | null;
  count: number;
}

/** A queued row waits on the budget, on a paused queue, or on its turn. */
export function pageStatusOf(status: string, code: string | null, paused: boolean): QueuePageStatus | null {
  switch (status) {
    case 'queued':
      if (code === BUDGET_REACHED) return 'heldByBudget';
      return paused ? 'paused' : 'queued';
    case 'submitting':
      return 'submitting';
    case 'awaiting_parts':
      // Its next parts wait for the budget, as the admin's badge says.
      return code === BUDGET_REACHED ? 'heldByBudget' : 'awaitingService';
    case 'awaiting_callback':
      return 'awaitingService';
    case 'storing':
      return 'storing';
    case 'failed':
      return 'failed';
    default:
      return null;
  }
}

export const noCounts = (): QueueCounts => Object.fromEntries(QUEUE_PAGE_STATUSES.map((status) => [status, 0])) as QueueCounts;

const groupKey = (cell: Pick<StatusCell, 'contentType' | 'locale'>) => `${cell.contentType}\u0000${cell.locale ?? ''}`;

/** The page's figures from the cells the caller may see: the whole, by type and locale, failures by reason. */
export function summarize(
  cells: readonly StatusCell[],
  paused: boolean
): Pick<QueueSummaryResponse, 'counts' | 'groups' | 'failureReasons'> {
  const counts = noCounts();
  const groups = new Map<string, QueueSummaryResponse['groups'][number]>();
  const reasons = new Map<string | null, number>();
  for (const cell of cells) {
    const status = pageStatusOf(cell.status, cell.code, paused);
    if (!status || cell.count <= 0) continue;
    counts[status] += cell.count;
    const key = groupKey(cell);
    const group = groups.get(key) ?? { contentType: cell.contentType, locale: cell.locale, counts: noCounts() };
    group.counts[status] += cell.count;
    groups.set(key, group);
    if (status === 'failed') reasons.set(cell.code, (reasons.get(cell.code) ?? 0) + cell.count);
  }
  return {
    counts,
    groups: [...groups.values()].sort(
      (a, b) => a.contentType.localeCompare(b.contentType) || (a.locale ?? '').localeCompare(b.locale ?? '')
    ),
    failureReasons: [...reasons.entries()]
      .map(([code, count]) => ({ code, count }))
      .sort((a, b) => b.count - a.count || (a.code ?? '').localeCompare(b.code ?? '')),
  };
}
