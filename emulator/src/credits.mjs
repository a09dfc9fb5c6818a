/** Credit balances per company. Accounts open lazily with the configured starting credits. */

export class CreditLedger {
  /** @param {() => number} startingCredits read at account opening, so config changes apply to new companies */
  constructor(startingCredits) {
    this.startingCredits = startingCredits;
    /** @type {Map<string, number>} */
    this.balances = new Map();
  }

  /** @param {string} company */
  balance(company) {
    if (!this.balances.has(company)) this.balances.set(company, this.startingCredits());
    return /** @type {number} */ (this.balances.get(company));
  }

  /** Deducts when affordable. @param {string} company @param {number} amount @returns {boolean} */
  charge(company, amount) {
    const current = this.balance(company);
    if (current < amount) return false;
    this.balances.set(company, current - amount);
    return true;
  }

  /** @param {string} company @param {number} amount */
  refund(company, amount) {
    this.balances.set(company, this.balance(company) + amount);
  }

  /** @param {string} company @param {number} credits */
  set(company, credits) {
    this.balances.set(company, credits);
  }

  /** Sets every known account. @param {number} credits */
  setAll(credits) {
    for (const company of this.balances.keys()) this.balances.set(company, credits);
  }

  snapshot() {
    return Object.fromEntries(this.balances);
  }
}
