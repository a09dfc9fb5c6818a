import { COUNTER_FIELDS, type NarrationEvent, type NarrationPatch, type NarrationState, type TransitionGuard } from './types';

/** Events only the holder of the row's lease may apply. */
const LEASE_HOLDER_EVENTS = [
  'leaseRenewed',
  'stored',
  'storeDeferred',
  'storeFailed',
  'storeAbandoned',
  'partsPlanned',
  'partsLost',
] as const;
type LeaseHolderEvent = Extract<NarrationEvent, { type: (typeof LEASE_HOLDER_EVENTS)[number] }>;
const LEASE_HOLDER_EVENT_TYPES: ReadonlySet<NarrationEvent['type']> = new Set(LEASE_HOLDER_EVENTS);

function isLeaseHolderEvent(event: NarrationEvent): event is LeaseHolderEvent {
  return LEASE_HOLDER_EVENT_TYPES.has(event.type);
}

/**
 * The guard of a transition: the lease for the lease holder's events (a claim requires a free
 * lease), and a compare-and-set on every counter the patch writes, so a counter is never written
 * from a copy that another writer has moved on from.
 */
export function guardFor(state: NarrationState, event: NarrationEvent, patch: NarrationPatch): TransitionGuard {
  const guard: TransitionGuard = {};
  if (event.type === 'storeClaimed') guard.leaseOwner = null;
  else if (event.type === 'leaseExpired') {
    guard.leaseExpiredBefore = event.now;
    if (state.leaseOwner) guard.leaseOwner = state.leaseOwner;
  } else if (isLeaseHolderEvent(event)) guard.leaseOwner = event.owner;
  for (const field of COUNTER_FIELDS) {
    if (patch[field] === undefined) continue;
    (guard.counters ??= {})[field] = state[field] ?? 0;
  }
  // Only a store replaces files: with no store since they were read, none has been added meanwhile.
  if (event.type === 'replacedFilesRemoved') (guard.counters ??= {}).stores = state.stores ?? 0;
  return guard;
}
