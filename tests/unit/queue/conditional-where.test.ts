import { conditionalWhere } from '../../../server/src/queue/rows/compare-and-set';

describe('the where clause of a conditional update', () => {
  it('is the expected status alone when the transition has no guard', () => {
    expect(conditionalWhere(7, ['storing'])).toEqual({ $and: [{ id: 7 }, { status: { $in: ['storing'] } }] });
  });

  it('adds the lease owner, a lease that ran out, and each counter at its old value', () => {
    const before = new Date('2026-01-01T00:00:00Z');
    expect(conditionalWhere(7, ['storing'], { leaseOwner: 'a', leaseExpiredBefore: before, counters: { storeAttempts: 2 } })).toEqual({
      $and: [{ id: 7 }, { status: { $in: ['storing'] } }, { leaseOwner: 'a' }, { leaseExpiresAt: { $lt: before } }, { storeAttempts: 2 }],
    });
  });

  it('a free lease is a NULL owner, and a counter at 0 also matches a row from before the counter (NULL)', () => {
    expect(conditionalWhere(7, ['storing'], { leaseOwner: null, counters: { storeAttempts: 0 } }).$and).toEqual([
      { id: 7 },
      { status: { $in: ['storing'] } },
      { leaseOwner: null },
      { $or: [{ storeAttempts: 0 }, { storeAttempts: null }] },
    ]);
  });
});
