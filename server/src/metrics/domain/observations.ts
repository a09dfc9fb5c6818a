/** What a committed change of a narration row says to the metrics: a submission's outcome, a callback's latency, a store's end. Pure. */

interface ChangeLike {
  event: { type: string; now?: Date };
  row: { submittedAt?: string | Date | null; leaseExpiresAt?: string | Date | null };
}

const SUBMISSION_OUTCOMES: Record<string, string> = {
  submitAccepted: 'accepted',
  submitAlreadyProcessing: 'already_processing',
  submitDeferred: 'deferred',
  submitPaused: 'paused',
  submitRejected: 'rejected',
  budgetHeld: 'budget_held',
};

export type Observation =
  | { kind: 'submission'; outcome: string }
  | { kind: 'callback'; withFiles: boolean; latencySeconds: number | null }
  | { kind: 'store'; outcome: 'stored' | 'deferred' | 'failed' };

export function observationOf(change: ChangeLike): Observation | null {
  const { event, row } = change;
  if (event.type in SUBMISSION_OUTCOMES) return { kind: 'submission', outcome: SUBMISSION_OUTCOMES[event.type]! };
  if (event.type === 'callbackWithFiles' || event.type === 'callbackWithoutFiles') {
    const submitted = row.submittedAt ? new Date(row.submittedAt).getTime() : NaN;
    const latency = event.now && Number.isFinite(submitted) ? (event.now.getTime() - submitted) / 1000 : null;
    return {
      kind: 'callback',
      withFiles: event.type === 'callbackWithFiles',
      latencySeconds: latency !== null && latency >= 0 ? latency : null,
    };
  }
  if (event.type === 'stored') return { kind: 'store', outcome: 'stored' };
  if (event.type === 'storeDeferred') return { kind: 'store', outcome: 'deferred' };
  if (event.type === 'storeFailed') return { kind: 'store', outcome: 'failed' };
  return null;
}
