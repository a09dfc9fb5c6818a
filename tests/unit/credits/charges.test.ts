import { chargedOnAcceptance, outcomeOfCallback } from '../../../server/src/credits/domain/charges';

/** What the ledger charges an accepted narration request: the contract's table of article states (spec 3.1). */

describe('charges of accepted narration requests', () => {
  it('charges a first request, asked with regenerate false or true', () => {
    expect(chargedOnAcceptance({ regenerate: false, cost: 900, askedBefore: false })).toBe(900);
    expect(chargedOnAcceptance({ regenerate: true, cost: 900, askedBefore: false })).toBe(900);
  });

  it('charges a fresh take of a known article, and nothing for asking it again without one', () => {
    expect(chargedOnAcceptance({ regenerate: true, cost: 1800, askedBefore: true })).toBe(1800);
    // Generated or failed: what the service has is re-delivered free.
    expect(chargedOnAcceptance({ regenerate: false, cost: 900, askedBefore: true })).toBe(0);
  });

  it('tells a generation from a free re-delivery and a refund by the callback', () => {
    expect(outcomeOfCallback(900, true)).toBe('generated');
    expect(outcomeOfCallback(0, true)).toBe('redelivered');
    // No audio, a failed generation: refunded. A failed result re-delivered cost nothing in the first place.
    expect(outcomeOfCallback(900, false)).toBe('refunded');
    expect(outcomeOfCallback(0, false)).toBe('redelivered');
  });
});
