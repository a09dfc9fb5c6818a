import { z } from 'zod/v3';
import type { BudgetSettings } from '../../../shared/contracts/usage';
import { contentTypeUidKey } from '../utils';
import { isTimeZone } from './domain/calendar';

const monthlyCredits = z.number().int('must be a whole number of credits').min(0, 'must be 0 or more credits').max(Number.MAX_SAFE_INTEGER);

export const timeZone = z.string().refine(isTimeZone, 'must be an IANA time zone such as "UTC" or "Asia/Amman"');

/** `monthlyCredits` is a public contract. A type's own limit counts its narrations only, within the site's. */
export const budgetConfigSchema = z
  .object({
    monthlyCredits: monthlyCredits.nullable().default(null),
    timeZone: timeZone.default('UTC'),
    contentTypes: z.record(contentTypeUidKey, monthlyCredits).default({}),
  })
  .strict();
export type BudgetConfig = z.output<typeof budgetConfigSchema>;

/** `contentTypes`, when given, replaces the saved map. */
export const budgetChangesSchema = z
  .object({
    monthlyCredits: monthlyCredits.nullable(),
    timeZone,
    contentTypes: z.record(contentTypeUidKey, monthlyCredits),
  })
  .partial()
  .strict();
export type BudgetChanges = z.output<typeof budgetChangesSchema>;

export const creditsConfigShape = {
  budget: budgetConfigSchema.default({}),
};

export const creditsSettingsShape = {
  budget: budgetChangesSchema,
};

export function budgetChangesOver(saved: BudgetChanges | undefined, changes: BudgetChanges): BudgetChanges {
  return { ...saved, ...changes };
}

/** Saved from the admin, key by key over the file; a saved null is "no limit". */
export function budgetInEffect(file: BudgetConfig, saved: BudgetChanges | undefined): BudgetSettings {
  return {
    monthlyCredits: saved?.monthlyCredits !== undefined ? saved.monthlyCredits : file.monthlyCredits,
    timeZone: saved?.timeZone ?? file.timeZone,
    contentTypes: saved?.contentTypes ?? file.contentTypes,
  };
}
