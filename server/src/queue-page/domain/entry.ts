import type { QueueEntry } from '../../../../shared/contracts/queue';
import { BUDGET_REACHED } from '../../../../shared/contracts/usage';
import type { NarrationListRow } from '../../queue';

/** A row as the page lists it: a queued one since it may go, another since it was last sent. */
export function queueEntry(row: NarrationListRow): QueueEntry {
  return {
    articleId: row.articleId,
    contentType: row.contentType,
    documentId: row.targetDocumentId,
    locale: row.targetLocale,
    title: row.title,
    status: row.status,
    heldByBudget: (row.status === 'queued' || row.status === 'awaiting_parts') && row.lastErrorCode === BUDGET_REACHED,
    since: (row.status === 'queued' ? row.nextAttemptAt : row.submittedAt) ?? row.updatedAt ?? null,
    attempts: row.attempts,
    credits: row.credits ?? null,
    lastError: row.lastError,
    lastErrorCode: row.lastErrorCode,
  };
}
