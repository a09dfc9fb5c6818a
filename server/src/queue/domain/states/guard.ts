import { COUNTER_FIELDS, type NarrationEvent, type NarrationPatch, type NarrationState, type TransitionGuard } from './types';

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

/** The lease for the holder's events, and a compare-and-set on every counter the patch writes, so none is written from a stale copy. */
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
