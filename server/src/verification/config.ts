import { z } from 'zod/v3';
import type { VerificationSettings } from '../../../shared/contracts/verification';

/**
 * Verification's slice of the configuration: when a check is a mismatch
 * (`verification.minWordAccuracy` is a public contract), and how the checks are paced. Which types verify is each type's `verify` (narration/config.ts).
 */

const minWordAccuracy = z.number().min(0, 'must be from 0 to 1').max(1, 'must be from 0 to 1');

export const verificationConfigSchema = z
  .object({
    minWordAccuracy: minWordAccuracy.default(0.95),
    /** Attempts at a check before it is `failed` (each speech-to-text refusal or outage counts one). */
    maxAttempts: z.number().int().min(1).max(20).default(5),
    /** How long a transcription may take before the check is `failed`. */
    maxWaitMs: z
      .number()
      .int()
      .min(1_000)
      .default(30 * 60_000),
  })
  .strict();
export type VerificationConfig = z.output<typeof verificationConfigSchema>;

/** The verification settings as `PUT /speech/settings` changes them: any of the editable keys. */
export const verificationChangesSchema = z.object({ minWordAccuracy }).partial().strict();
export type VerificationChanges = z.output<typeof verificationChangesSchema>;

export const verificationConfigShape = {
  /** How narrations of the types that verify are checked (docs/verification.md). */
  verification: verificationConfigSchema.default({}),
};

/** What an editor may change in Settings -> Speech: key by key. */
export const verificationSettingsShape = {
  verification: verificationChangesSchema,
};

export function verificationChangesOver(saved: VerificationChanges | undefined, changes: VerificationChanges): VerificationChanges {
  return { ...saved, ...changes };
}

/** The settings in effect: what was saved from the admin, key by key over the file. */
export function verificationInEffect(file: VerificationConfig, saved: VerificationChanges | undefined): VerificationSettings {
  return {
    minWordAccuracy: saved?.minWordAccuracy ?? file.minWordAccuracy,
  };
}
