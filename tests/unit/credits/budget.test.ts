import { budgetReason, budgetVerdict, type BudgetVerdict } from '../../../server/src/credits/domain/budget';

/** The monthly credit budget (issue 24): what may be sent, decided before any request goes out. */

const ARTICLE = 'api::article.article';
const PAGE = 'api::page.page';
const spent = (total: number, byType: Record<string, number> = {}) => ({ total, byType });

describe('the monthly budget', () => {
  it('lets a request through while the month stays within the budget, the last credit included', () => {
    expect(budgetVerdict({ monthlyCredits: 1000 }, spent(600), { credits: 400, contentType: ARTICLE })).toEqual({ kind: 'within' });
    expect(budgetVerdict({ monthlyCredits: null }, spent(10 ** 9), { credits: 400, contentType: ARTICLE })).toEqual({ kind: 'within' });
  });

  it('holds the request that would take the month over it, and says by how much', () => {
    const verdict = budgetVerdict({ monthlyCredits: 1000 }, spent(600), { credits: 401, contentType: ARTICLE });
    expect(verdict).toEqual({ kind: 'over', limit: 'site', monthlyCredits: 1000, spent: 600, credits: 401 });
    expect(budgetReason(verdict as Extract<BudgetVerdict, { kind: 'over' }>)).toBe(
      "Monthly budget reached: 401 credits would take the site's month to 1,001 of 1,000. It waits until the month turns or the budget is raised, and nothing is sent before."
    );
  });

  it('never holds what costs nothing, nor what an editor let through', () => {
    expect(budgetVerdict({ monthlyCredits: 0 }, spent(5000), { credits: 0, contentType: ARTICLE })).toEqual({ kind: 'within' });
    expect(budgetVerdict({ monthlyCredits: 1000 }, spent(1000), { credits: 50, contentType: ARTICLE, letThrough: true })).toEqual({
      kind: 'within',
    });
  });

  it("lets a type's request through up to the type's last credit, and says which limit holds it", () => {
    const budget = { monthlyCredits: null, contentTypes: { [ARTICLE]: 500 } };
    expect(budgetVerdict(budget, spent(450, { [ARTICLE]: 450 }), { credits: 50, contentType: ARTICLE })).toEqual({ kind: 'within' });
    const over = budgetVerdict(budget, spent(450, { [ARTICLE]: 450 }), { credits: 51, contentType: ARTICLE });
    expect(budgetReason(over as Extract<BudgetVerdict, { kind: 'over' }>)).toContain("this content type's month to 501 of 500");
  });

  it("holds a type's request over the type's own limit, and only that type's", () => {
    const budget = { monthlyCredits: 10_000, contentTypes: { [ARTICLE]: 500, [PAGE]: null } };
    const month = spent(800, { [ARTICLE]: 450, [PAGE]: 350 });
    expect(budgetVerdict(budget, month, { credits: 100, contentType: ARTICLE })).toEqual({
      kind: 'over',
      limit: 'type',
      monthlyCredits: 500,
      spent: 450,
      credits: 100,
    });
    expect(budgetVerdict(budget, month, { credits: 100, contentType: PAGE })).toEqual({ kind: 'within' });
    // A voice preview belongs to no type: only the site's budget holds it.
    expect(budgetVerdict(budget, month, { credits: 100, contentType: null })).toEqual({ kind: 'within' });
    expect(
      budgetVerdict({ monthlyCredits: 850, contentTypes: budget.contentTypes }, month, { credits: 100, contentType: null })
    ).toMatchObject({
      kind: 'over',
      limit: 'site',
    });
  });
});
