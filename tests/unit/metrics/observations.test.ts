import { observationOf } from '../../../server/src/metrics/domain/observations';

const now = new Date('2026-12-03T10:00:30.000Z');
const row = { submittedAt: '2026-12-03T10:00:00.000Z' };

describe('what a committed change says to the metrics', () => {
  it("names a submission's outcome by the service's answer", () => {
    const outcomes = ['submitAccepted', 'submitAlreadyProcessing', 'submitDeferred', 'submitPaused', 'submitRejected', 'budgetHeld'].map(
      (type) => observationOf({ event: { type, now }, row })
    );
    expect(outcomes).toEqual(
      ['accepted', 'already_processing', 'deferred', 'paused', 'rejected', 'budget_held'].map((outcome) => ({
        kind: 'submission',
        outcome,
      }))
    );
  });

  it("times a callback from its submission's acceptance", () => {
    expect(observationOf({ event: { type: 'callbackWithFiles', now }, row })).toEqual({
      kind: 'callback',
      withFiles: true,
      latencySeconds: 30,
    });
    expect(observationOf({ event: { type: 'callbackWithoutFiles', now }, row })).toEqual({
      kind: 'callback',
      withFiles: false,
      latencySeconds: 30,
    });
    // No submission time, or a clock that went back: counted without a latency.
    expect(observationOf({ event: { type: 'callbackWithFiles', now }, row: {} })).toMatchObject({ latencySeconds: null });
    expect(observationOf({ event: { type: 'callbackWithFiles', now }, row: { submittedAt: '2026-12-03T11:00:00.000Z' } })).toMatchObject({
      latencySeconds: null,
    });
  });

  it("says how a store ended, and nothing of the queue's other changes", () => {
    expect(observationOf({ event: { type: 'stored', now }, row })).toEqual({ kind: 'store', outcome: 'stored' });
    expect(observationOf({ event: { type: 'storeDeferred' }, row })).toEqual({ kind: 'store', outcome: 'deferred' });
    expect(observationOf({ event: { type: 'storeFailed' }, row })).toEqual({ kind: 'store', outcome: 'failed' });
    for (const type of ['contentChanged', 'claimed', 'leaseRenewed', 'storeClaimed', 'cancelled'])
      expect(observationOf({ event: { type, now }, row })).toBeNull();
  });
});
