import { createIntl } from 'react-intl';
import type { BudgetSettings, NarrationView, SpeechSettings } from '../../../admin/src/api/types';
import { explainFailure } from '../../../admin/src/components/FailureReason';
import { budgetChanges, isTimeZone, knownTimeZones, toBudgetForm, validateBudget } from '../../../admin/src/pages/Settings/budgetForm';
import { fromForm, isDirty, toForm, validateForm } from '../../../admin/src/pages/Settings/form';
import { BADGE_LABEL, BADGE_VARIANT, badgeKind, isHeldByBudget, knownErrorCode } from '../../../admin/src/utils/status';
import en from '../../../admin/src/translations/en.json';
import { describedType, queueState } from './fixtures';
import { ARTICLE, NOTE } from './usage-fixtures';

const BUDGET: BudgetSettings = { monthlyCredits: 50_000, timeZone: 'Europe/Berlin', contentTypes: { [NOTE]: 5_000 } };
const SETTINGS = {
  defaultVoiceId: 'en-female-1',
  preprocessType: '0',
  contentTypes: { [ARTICLE]: { titleField: 'title', textFields: ['body'] } },
  budget: BUDGET,
} as unknown as SpeechSettings;
const TYPES = [describedType(ARTICLE, 'Article', { title: 'string', body: 'blocks' }, { draftAndPublish: true, localized: true })];

describe('the budget card’s form', () => {
  const saved = toBudgetForm(BUDGET)!;

  it('sends nothing of the budget while nothing changed (the file’s values stay the file’s)', () => {
    expect(budgetChanges(toBudgetForm(BUDGET)!, saved)).toBeUndefined();
    const form = toForm(SETTINGS, TYPES);
    expect(fromForm(form)).not.toHaveProperty('budget');
    expect(isDirty(form, toForm(SETTINGS, TYPES))).toBe(false);
  });

  it('sends only the keys the editor changed', () => {
    expect(budgetChanges({ ...saved, monthlyCredits: 80_000 }, saved)).toEqual({ monthlyCredits: 80_000 });
    expect(budgetChanges({ ...saved, timeZone: ' Asia/Riyadh ' }, saved)).toEqual({ timeZone: 'Asia/Riyadh' });
    const form = toForm(SETTINGS, TYPES);
    const edited = { ...form, budget: { ...form.budget!, monthlyCredits: 70_000 } };
    expect(fromForm(edited).budget).toEqual({ monthlyCredits: 70_000 });
    expect(isDirty(edited, form)).toBe(true);
  });

  it('sends an emptied budget as null: no limit', () => {
    expect(budgetChanges({ ...saved, monthlyCredits: null }, saved)).toEqual({ monthlyCredits: null });
  });

  it('sends the types’ limits as one map (the server replaces it whole), an emptied one left out', () => {
    expect(budgetChanges({ ...saved, contentTypes: { [NOTE]: 5_000, [ARTICLE]: 30_000 } }, saved)).toEqual({
      contentTypes: { [NOTE]: 5_000, [ARTICLE]: 30_000 },
    });
    expect(budgetChanges({ ...saved, contentTypes: { [NOTE]: null } }, saved)).toEqual({ contentTypes: {} });
    // A type's field filled and emptied again is no change.
    expect(budgetChanges({ ...saved, contentTypes: { [NOTE]: 5_000, [ARTICLE]: null } }, saved)).toBeUndefined();
  });

  it('has no budget form for a server that does not offer the budget (older servers)', () => {
    const { budget: _budget, ...older } = SETTINGS;
    const form = toForm(older as SpeechSettings, TYPES);
    expect(form.budget).toBeUndefined();
    expect(fromForm(form)).not.toHaveProperty('budget');
  });
});

describe('the budget’s checks before saving', () => {
  it('knows IANA time zones as the browser’s Intl does, and refuses others', () => {
    expect(['UTC', 'Europe/Berlin', 'Asia/Riyadh', 'America/Argentina/Buenos_Aires'].every(isTimeZone)).toBe(true);
    expect(['', '  ', 'Mars/Olympus', 'Berlin', 'GMT+25'].some(isTimeZone)).toBe(false);
    expect(knownTimeZones()[0]).toBe('UTC');
    expect(knownTimeZones()).toContain('Asia/Riyadh');
  });

  it('refuses a fraction or a negative limit, on the server’s paths, and takes an empty one', () => {
    const form = { monthlyCredits: -1, timeZone: 'Nowhere/Land', contentTypes: { [ARTICLE]: 2.5, [NOTE]: null } };
    expect(validateBudget(form)).toEqual([
      { path: ['budget', 'monthlyCredits'], message: 'validation.budgetCredits' },
      { path: ['budget', 'timeZone'], message: 'validation.timeZone' },
      { path: ['budget', 'contentTypes', ARTICLE], message: 'validation.budgetCredits' },
    ]);
    expect(validateBudget({ monthlyCredits: null, timeZone: 'UTC', contentTypes: { [ARTICLE]: 0 } })).toEqual([]);
  });

  it('are part of the page’s checks', () => {
    const form = toForm(SETTINGS, TYPES);
    const errors = validateForm({ ...form, budget: { ...form.budget!, timeZone: 'Europe/Atlantis' } });
    expect(errors).toContainEqual({ path: ['budget', 'timeZone'], message: 'validation.timeZone' });
    expect(validateForm(form).filter((error) => error.path[0] === 'budget')).toEqual([]);
  });
});

describe('a narration the budget holds', () => {
  const held = { status: 'queued' as const, lastErrorCode: 'BUDGET_REACHED' };

  it('shows “Monthly budget reached” (warning) instead of “Queued”, also for a segmented one whose parts wait', () => {
    expect(badgeKind(held)).toBe('budget');
    expect(badgeKind({ ...held, status: 'awaiting_parts' })).toBe('budget');
    expect(BADGE_LABEL.budget).toBe('Monthly budget reached');
    expect(BADGE_VARIANT.budget).toBe('warning');
    expect(en['badge.budget']).toBe('Monthly budget reached');
  });

  it('wins over the queue’s credit pause: the budget, not the account, holds it', () => {
    expect(badgeKind(held, queueState({ paused: true, pauseCode: 'INSUFFICIENT_CREDITS' }))).toBe('budget');
  });

  it('is not a narration that went out or ended, whatever its last code', () => {
    for (const status of ['submitting', 'awaiting_callback', 'storing', 'completed', 'failed', 'cancelled'] as const) {
      expect(isHeldByBudget({ status, lastErrorCode: 'BUDGET_REACHED' })).toBe(false);
    }
    expect(badgeKind({ status: 'queued', lastErrorCode: 'RATE_LIMIT_EXCEEDED' })).toBe('queued');
    expect(badgeKind({ status: 'queued' })).toBe('queued');
  });

  it('is explained in the editor’s language (a known code)', () => {
    expect(knownErrorCode('BUDGET_REACHED')).toBe('BUDGET_REACHED');
    const row: Pick<NarrationView, 'lastError' | 'lastErrorCode'> = { lastError: 'over budget', lastErrorCode: 'BUDGET_REACHED' };
    const english = createIntl({ locale: 'en', messages: { 'speech.error.BUDGET_REACHED': en['error.BUDGET_REACHED'] } });
    expect(explainFailure(row, english)).toMatch(/monthly credit budget is reached/);
    const arabic = createIntl({ locale: 'ar', messages: { 'speech.error.BUDGET_REACHED': 'بلغت الميزانية' } });
    expect(explainFailure(row, arabic)).toBe('بلغت الميزانية');
  });
});
