import type { LedgerService } from '../../credits';
import { holdsEmptyResult } from '../domain/states';
import type { Core } from '@strapi/strapi';
import type { NarrationRows } from '../rows/narration-rows';
import type { PartRows } from '../rows/part-rows';
import type { QueueConfig } from './config';
import type { PlanStep } from './plan-step';

interface RecoveryDeps {
  strapi: Core.Strapi;
  config: Pick<QueueConfig, 'maxAttempts'>;
  repository: NarrationRows;
  parts: PartRows;
  ledger: Pick<LedgerService, 'callbackReceived'>;
}

/** Rows whose holder stopped renewing its lease (a crash, a lost database) go back to where they can be taken again. */
export async function recoverLeases({ strapi, repository, parts }: RecoveryDeps, at: Date) {
  for (const row of await repository.withExpiredLease(at)) {
    const outcome = await repository.apply(row, { type: 'leaseExpired', now: at });
    if (outcome.applied) strapi.log.info(`[speech] recovered ${row.articleId} from an expired lease (${row.status})`);
  }
  for (const part of await parts.withExpiredLease(at)) {
    const outcome = await parts.apply(part, { type: 'leaseExpired', now: at });
    if (outcome.applied) strapi.log.info(`[speech] recovered part ${part.articleId} from an expired lease`);
  }
}

/** Lost callbacks and empty results held past their grace settle the ledger as their callback would have (refunded). */
export async function timeOutCallbacks(
  { config, repository, parts, ledger, planStep }: RecoveryDeps & { planStep: Pick<PlanStep, 'settle'> },
  at: Date
) {
  const settleHeld = (articleId: string) => ledger.callbackReceived(articleId, false, at);
  for (const row of await repository.withCallbackOverdue(at)) {
    const outcome = await repository.apply(row, { type: 'callbackTimedOut', maxAttempts: config.maxAttempts, now: at });
    if (outcome.applied && holdsEmptyResult(row)) await settleHeld(row.articleId);
  }
  for (const part of await parts.withCallbackOverdue(at)) {
    const outcome = await parts.apply(part, { type: 'callbackTimedOut', maxAttempts: config.maxAttempts, now: at });
    if (outcome.applied && holdsEmptyResult(part)) await settleHeld(part.articleId);
    if (outcome.applied && outcome.row.status === 'failed') await planStep.settle(part.narrationId);
  }
}
