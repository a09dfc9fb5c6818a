/** Verified narration: stored narrations checked by the service's speech to text. Other features import it from here. */
export type { VerificationViews } from './verification-views.service';
export type { Verifier } from './verifier';
