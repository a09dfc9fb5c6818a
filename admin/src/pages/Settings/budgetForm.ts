import type { BudgetSettings, FieldError } from '../../api/types';

/**
 * The budget card's form and what of it a PUT sends. Pure: unit-tested. The server changes the
 * budget key by key (SettingsChanges), so only the keys the editor changed are sent: a key left
 * alone stays what the configuration file or an earlier save made it.
 */

export interface BudgetForm {
  /** Credits a month may spend; null while the field is empty (no limit). */
  monthlyCredits: number | null;
  /** An IANA time zone, as typed (checked before saving). */
  timeZone: string;
  /** A content type's own monthly limit; null while its field is empty (none of its own). */
  contentTypes: Record<string, number | null>;
}

/** The time zone a site without one counts its months in (the server's default too). */
export const DEFAULT_TIME_ZONE = 'UTC';

export function toBudgetForm(budget: BudgetSettings | undefined): BudgetForm | undefined {
  if (!budget) return undefined;
  return {
    monthlyCredits: budget.monthlyCredits ?? null,
    timeZone: budget.timeZone ?? DEFAULT_TIME_ZONE,
    contentTypes: { ...budget.contentTypes },
  };
}

/** The limits of their own the form holds: the types whose field is not empty. */
function typeLimits(form: BudgetForm): Record<string, number> {
  return Object.fromEntries(Object.entries(form.contentTypes).filter((entry): entry is [string, number] => entry[1] !== null));
}

function sameLimits(left: Record<string, number>, right: Record<string, number>): boolean {
  const keys = Object.keys(left);
  return keys.length === Object.keys(right).length && keys.every((uid) => right[uid] === left[uid]);
}

/**
 * The budget keys that differ from the saved budget, or undefined when none does. The per-type
 * map is sent whole (the server replaces it whole): a type whose field was emptied is left out of it.
 */
export function budgetChanges(form: BudgetForm, saved: BudgetForm): Partial<BudgetSettings> | undefined {
  const changes: Partial<BudgetSettings> = {};
  if (form.monthlyCredits !== saved.monthlyCredits) changes.monthlyCredits = form.monthlyCredits;
  if (form.timeZone.trim() !== saved.timeZone) changes.timeZone = form.timeZone.trim();
  const limits = typeLimits(form);
  if (!sameLimits(limits, typeLimits(saved))) changes.contentTypes = limits;
  return Object.keys(changes).length ? changes : undefined;
}

/** Whether the browser's Intl knows the zone, as the server's does (`Europe/Berlin`, `Asia/Riyadh`, `UTC`). */
export function isTimeZone(name: string): boolean {
  if (!name.trim()) return false;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: name.trim() });
    return true;
  } catch {
    return false;
  }
}

/** A credit limit the server takes: a whole number, zero or more. */
const validLimit = (value: number) => Number.isInteger(value) && value >= 0;

/** Messages of the checks below; their ids are translation keys. */
export const BUDGET_VALIDATION_MESSAGES: Record<string, string> = {
  'validation.budgetCredits': 'Write a whole number of credits, 0 or more, or leave it empty for no limit.',
  'validation.timeZone': 'Write a time zone such as Europe/Berlin, Asia/Riyadh or UTC.',
};

/** Checks made before saving, with the server's paths (`budget.monthlyCredits`, `budget.contentTypes.<uid>`). */
export function validateBudget(form: BudgetForm | undefined): FieldError[] {
  if (!form) return [];
  const errors: FieldError[] = [];
  if (form.monthlyCredits !== null && !validLimit(form.monthlyCredits))
    errors.push({ path: ['budget', 'monthlyCredits'], message: 'validation.budgetCredits' });
  if (!isTimeZone(form.timeZone)) errors.push({ path: ['budget', 'timeZone'], message: 'validation.timeZone' });
  for (const [uid, limit] of Object.entries(form.contentTypes)) {
    if (limit !== null && !validLimit(limit)) errors.push({ path: ['budget', 'contentTypes', uid], message: 'validation.budgetCredits' });
  }
  return errors;
}

/** Time zones the browser knows, for the field's suggestions (empty where Intl cannot list them). */
export function knownTimeZones(): string[] {
  const intl = Intl as typeof Intl & { supportedValuesOf?: (key: 'timeZone') => string[] };
  try {
    return intl.supportedValuesOf ? ['UTC', ...intl.supportedValuesOf('timeZone').filter((zone) => zone !== 'UTC')] : ['UTC'];
  } catch {
    return ['UTC'];
  }
}
