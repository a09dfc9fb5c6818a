/** The worker takes a queued row and submits it: the outcomes of POST /process-text. */
import { afterFailedAttempt, CLEAR_LEASE, type Decide } from './decision';
import { BUDGET_REACHED } from '../../../../../shared/contracts/usage';

export const onClaimed: Decide<'claimed'> = (state, event) => {
  if (state.status !== 'queued') return { kind: 'ignore', reason: `not queued (${state.status})` };
  return {
    kind: 'apply',
    from: ['queued'],
    patch: { status: 'submitting', leaseOwner: event.owner, leaseExpiresAt: new Date(event.now.getTime() + event.leaseMs) },
  };
};

export const onClaimReturned: Decide<'claimReturned'> = (state) => {
  if (state.status !== 'submitting') return { kind: 'ignore', reason: `not claimed (${state.status})` };
  return { kind: 'apply', from: ['submitting'], patch: { ...CLEAR_LEASE, status: 'queued' } };
};

/**
 * Accepted (202) or already generating (409): the callback will come. A check of a callback without
 * files asks about the request in flight: no new attempt, no new version; a 409 ends it at once.
 */
export const onSubmitted: Decide<'submitAccepted' | 'submitAlreadyProcessing'> = (state, event) => {
  const accepted = event.type === 'submitAccepted';
  const check = Boolean(state.noAudioCheck);
  return {
    kind: 'apply',
    from: ['submitting'],
    patch: {
      ...CLEAR_LEASE,
      status: 'awaiting_callback',
      submittedFingerprint: check ? state.submittedFingerprint : state.fingerprint,
      attempts: state.attempts + (accepted && !check ? 1 : 0),
      submissions: state.submissions + (accepted ? 1 : 0),
      ...(check && !accepted ? { noAudioCheck: false } : {}),
      submittedAt: event.now,
      callbackDeadline: new Date(event.now.getTime() + event.callbackTimeoutMs),
      nextAttemptAt: null,
      lastError: null,
      lastErrorCode: null,
    },
  };
};

export const onSubmitDeferred: Decide<'submitDeferred'> = (state, event) => {
  const attempts = state.attempts + (event.countsAsAttempt ? 1 : 0);
  // As after a crash mid-submission: regenerate true could pay for a second generation if the lost
  // request started one; regenerate false cannot charge (409, or a re-delivery of the new or old result).
  const retry = event.outcomeUnknown
    ? { attempts, nextAttemptAt: event.retryAt, regenerate: false }
    : { attempts, nextAttemptAt: event.retryAt };
  return afterFailedAttempt({ ...state, attempts }, event.maxAttempts, event, retry);
};

export { BUDGET_REACHED };

export const onBudgetHeld: Decide<'budgetHeld'> = (_state, event) => ({
  kind: 'apply',
  from: ['submitting'],
  patch: { ...CLEAR_LEASE, status: 'queued', lastError: event.reason, lastErrorCode: BUDGET_REACHED, nextAttemptAt: event.until },
});

export const onSubmitPaused: Decide<'submitPaused'> = (_state, event) => ({
  kind: 'apply',
  from: ['submitting'],
  patch: { ...CLEAR_LEASE, status: 'queued', lastError: event.reason, lastErrorCode: event.code },
});

/** Charged, then failed at once: the service keeps a failed record of the article, which only regenerate true replaces (spec 3.1). */
const SERVICE_RECORDS_FAILURE: ReadonlySet<string> = new Set(['PROCESSING_ERROR', 'REFUND_FAILED']);

export const onSubmitRejected: Decide<'submitRejected'> = (state, event) => ({
  kind: 'apply',
  from: ['submitting'],
  patch: {
    ...CLEAR_LEASE,
    status: 'failed',
    submissions: state.submissions + (SERVICE_RECORDS_FAILURE.has(event.code) ? 1 : 0),
    lastError: event.reason,
    lastErrorCode: event.code,
    creditsMayBeLost: event.creditsMayBeLost ?? false,
    nextAttemptAt: null,
  },
});
