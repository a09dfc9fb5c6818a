/**
 * Verified narration (docs/verification.md): the plugin sends each stored narration of a type that
 * verifies to the service's speech to text and compares what it heard with the text it sent.
 * `contentTypes[uid].verify`, `contentTypes[uid].verification.onMismatch`,
 * `verification.minWordAccuracy` and the narration's `verification` field are public contracts.
 */

/** What a mismatch does: only flag it, or regenerate the article once (a paid regenerate, through the budget and the ledger). */
export const VERIFICATION_ON_MISMATCH = ['flag', 'regenerate'] as const;
export type VerificationOnMismatch = (typeof VERIFICATION_ON_MISMATCH)[number];

/** A type's own choice, beside `verify: true` (`contentTypes[uid].verification`). */
export interface TypeVerification {
  onMismatch?: VerificationOnMismatch;
}

/** The site's verification settings (Settings -> Speech, or the configuration file). */
export interface VerificationSettings {
  /** The word accuracy below which a check is a mismatch, from 0 to 1. */
  minWordAccuracy: number;
}

/**
 * Where a narration's check stands: `pending` while a part or the article is being transcribed or
 * compared, `verified` when every check reached the minimum, `mismatch` when one did not, `failed`
 * when a check could not be made (speech to text down past its attempts, the audio unreadable).
 */
export const VERIFICATION_STATUSES = ['pending', 'verified', 'mismatch', 'failed'] as const;
export type VerificationStatus = (typeof VERIFICATION_STATUSES)[number];

/** A place where the audio differs from the text sent. */
export interface VerificationPlace {
  /** What was sent there, as written ('' where the audio says words that were not sent). */
  expected: string;
  /** What the transcript says there ('' where words sent were not heard). */
  heard: string;
  /** Where it is in the stored audio, in seconds. */
  atSeconds: number;
}

/** A narration's check, as the admin shows it; null on a narration of a type that does not verify. */
export interface VerificationView {
  status: VerificationStatus;
  /** Words heard right over words sent, every checked part together; null until a check completed. */
  wordAccuracy: number | null;
  /** How many places differ; `places` lists the first of them. */
  placeCount: number;
  places: VerificationPlace[];
  /** Checks of this audio (one, or one per part of a segmented narration) and how many are done. */
  checks: { total: number; done: number };
  /** Why a check failed, in words an editor reads; null otherwise. */
  reason: string | null;
  /** When the last check ended. */
  checkedAt: string | null;
}
