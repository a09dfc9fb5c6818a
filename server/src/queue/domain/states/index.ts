/**
 * The narration's state machine: every state change of a row is one of these transitions, so the rules
 * of the spec's section 3.1 live in one place and are tested without a database. A transition is pure:
 * it returns the patch and the state it expects; the repository applies it as a conditional update on
 * that state, so two instances (or two duplicate callbacks) racing for one row cannot both win.
 */
import { onCallbackTimedOut, onCallbackWithFiles, onCallbackWithoutFiles } from './callback';
import { onCancelled, onContentChanged, onPartsRegenerateRequested, onRegenerateRequested } from './content';
import type { Decide, Decision, EventMap } from './decision';
import { guardFor } from './guard';
import { onLeaseExpired, onLeaseRenewed } from './lease';
import { onPartFailed, onPartsLost, onPartsPlanned, onPartsReady } from './parts';
import { onReplacedFilesRemoved, onStoreAbandoned, onStoreClaimed, onStored, onStoreDeferred, onStoreFailed } from './storing';
import { onBudgetHeld, onClaimed, onClaimReturned, onSubmitDeferred, onSubmitPaused, onSubmitRejected, onSubmitted } from './submission';
import type { NarrationEvent, NarrationState, TransitionResult } from './types';

export * from './types';
export { BUDGET_REACHED } from './submission';
export { holdsEmptyResult } from './callback';

const DECISIONS: { [T in keyof EventMap]: Decide<T> } = {
  contentChanged: onContentChanged,
  regenerateRequested: onRegenerateRequested,
  partsRegenerateRequested: onPartsRegenerateRequested,
  cancelled: onCancelled,
  claimed: onClaimed,
  claimReturned: onClaimReturned,
  submitAccepted: onSubmitted,
  submitAlreadyProcessing: onSubmitted,
  submitDeferred: onSubmitDeferred,
  submitPaused: onSubmitPaused,
  budgetHeld: onBudgetHeld,
  submitRejected: onSubmitRejected,
  callbackWithFiles: onCallbackWithFiles,
  callbackWithoutFiles: onCallbackWithoutFiles,
  callbackTimedOut: onCallbackTimedOut,
  storeClaimed: onStoreClaimed,
  leaseRenewed: onLeaseRenewed,
  stored: onStored,
  storeDeferred: onStoreDeferred,
  storeFailed: onStoreFailed,
  replacedFilesRemoved: onReplacedFilesRemoved,
  storeAbandoned: onStoreAbandoned,
  leaseExpired: onLeaseExpired,
  partsPlanned: onPartsPlanned,
  partsReady: onPartsReady,
  partFailed: onPartFailed,
  partsLost: onPartsLost,
};

function decide<T extends keyof EventMap>(state: NarrationState, event: EventMap[T] & { type: T }): Decision {
  const decideEvent: Decide<T> = DECISIONS[event.type];
  return decideEvent(state, event);
}

export function transition(state: NarrationState, event: NarrationEvent): TransitionResult {
  const decision = decide(state, event);
  if (decision.kind === 'ignore') return decision;
  return { ...decision, guard: guardFor(state, event, decision.patch) };
}
