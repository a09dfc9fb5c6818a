import { z } from 'zod/v3';
import type { BudgetSettings } from '../../../shared/contracts/usage';
import { contentTypeUidKey } from '../utils';
import { isTimeZone } from './domain/calendar';

/** A monthly credit budget: a whole number of credits, or null for none. */
const monthlyCredits = z.number().int('must be a whole number of credits').min(0, 'must be 0 or more credits').max(Number.MAX_SAFE_INTEGER);

/** The IANA zone whose calendar the budget counts months and days in. */
export const timeZone = z.string().refine(isTimeZone, 'must be an IANA time zone such as "UTC" or "Asia/Amman"');

/**
 * The monthly credit budget (`monthlyCredits` is a public contract). Left out: no limit,
 * months and days in UTC. A type's own limit counts its narrations only, within the site's.
 */
export const budgetConfigSchema = z
  .object({
    monthlyCredits: monthlyCredits.nullable().default(null),
    timeZone: timeZone.default('UTC'),
    contentTypes: z.record(contentTypeUidKey, monthlyCredits).default({}),
  })
  .strict();
export type BudgetConfig = z.output<typeof budgetConfigSchema>;

/** The budget as `PUT /speech/settings` changes it: any of its keys; `contentTypes`, when given, replaces the saved map. */
export const budgetChangesSchema = z
  .object({
    monthlyCredits: monthlyCredits.nullable(),
    timeZone,
    contentTypes: z.record(contentTypeUidKey, monthlyCredits),
  })
  .partial()
  .strict();
export type BudgetChanges = z.output<typeof budgetChangesSchema>;

/** The credits' slice of the configuration file. */
export const creditsConfigShape = {
  /** The monthly credit budget and the calendar it counts in. */
  budget: budgetConfigSchema.default({}),
};

/** What an editor may change of the budget in Settings -> Speech: key by key. */
export const creditsSettingsShape = {
  budget: budgetChangesSchema,
};

/** A saved change of the budget over the one saved before: the keys given replace the saved ones. */
export function budgetChangesOver(saved: BudgetChanges | undefined, changes: BudgetChanges): BudgetChanges {
  return { ...saved, ...changes };
}

/** The budget in effect: what was saved from the admin, key by key over the file (a saved null is "no limit"). */
export function budgetInEffect(file: BudgetConfig, saved: BudgetChanges | undefined): BudgetSettings {
  return {
    monthlyCredits: saved?.monthlyCredits !== undefined ? saved.monthlyCredits : file.monthlyCredits,
    timeZone: saved?.timeZone ?? file.timeZone,
    contentTypes: saved?.contentTypes ?? file.contentTypes,
  };
}
