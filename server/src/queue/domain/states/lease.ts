/** The lease of the instance that holds a row (submitting or storing): renewed while at work, recovered after a crash. */
import { CLEAR_LEASE, type Decide } from './decision';

export const onLeaseRenewed: Decide<'leaseRenewed'> = (state, event) => {
  if (state.status !== 'storing' && state.status !== 'submitting') {
    return { kind: 'ignore', reason: `no lease to renew (${state.status})` };
  }
  return { kind: 'apply', from: [state.status], patch: { leaseExpiresAt: new Date(event.now.getTime() + event.leaseMs) } };
};

export const onLeaseExpired: Decide<'leaseExpired'> = (state, event) => {
  if (state.status === 'submitting') {
    // We cannot know whether the crashed submission reached the service. Asking again with
    // regenerate false never pays twice: the service answers 409 (still generating),
    // re-delivers a finished result for free, or re-delivers the old one (recognised in callback.ts).
    return {
      kind: 'apply',
      from: ['submitting'],
      patch: { ...CLEAR_LEASE, status: 'queued', regenerate: false, nextAttemptAt: event.now },
    };
  }
  if (state.status === 'storing') {
    return { kind: 'apply', from: ['storing'], patch: { ...CLEAR_LEASE, nextAttemptAt: event.now } };
  }
  return { kind: 'ignore', reason: `no lease to recover (${state.status})` };
};
