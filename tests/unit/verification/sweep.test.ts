import {
  afterSweep,
  currentSweep,
  isChecked,
  LOOK_BACK_MS,
  PASS_EVERY_MS,
  sweepSince,
} from '../../../server/src/verification/domain/sweep';

const ARTICLE = 'api::article.article';
const PAGE = 'api::page.page';
const at = (iso: string) => new Date(iso);
const T0 = '2026-11-29T10:00:00.000Z';
const T1 = '2026-11-29T11:00:00.000Z';

describe("the verifier's sweep", () => {
  it('begins a type turned on about when it was (a pass sees it at most PASS_EVERY_MS later): its older stores are not checked', () => {
    const { state, changed } = currentSweep(null, [ARTICLE], at(T1));
    const begun = new Date(Date.parse(T1) - PASS_EVERY_MS).toISOString();
    expect(changed).toBe(true);
    expect(state.types[ARTICLE]).toEqual({ from: begun, seen: begun });
    expect(isChecked(state, { contentType: ARTICLE, completedAt: '2026-11-29T10:58:00.000Z' })).toBe(false);
    expect(isChecked(state, { contentType: ARTICLE, completedAt: '2026-11-29T10:59:59.000Z' })).toBe(true);
    expect(isChecked(state, { contentType: ARTICLE, completedAt: T1 })).toBe(true);
    expect(isChecked(state, { contentType: PAGE, completedAt: T1 })).toBe(false);
    expect(isChecked(state, { contentType: ARTICLE, completedAt: null })).toBe(false);
  });

  it('begins a type at the last read of the settings without it, when that is later', () => {
    const read = at('2026-11-29T10:59:55.000Z');
    expect(currentSweep(null, [ARTICLE, PAGE], at(T1), { at: read, types: [ARTICLE] }).state.types).toEqual({
      [ARTICLE]: { from: '2026-11-29T10:59:30.000Z', seen: '2026-11-29T10:59:30.000Z' },
      [PAGE]: { from: '2026-11-29T10:59:55.000Z', seen: '2026-11-29T10:59:55.000Z' },
    });
    // A read older than PASS_EVERY_MS does not move the beginning further back.
    expect(currentSweep(null, [PAGE], at(T1), { at: at(T0), types: [] }).state.types[PAGE].from).toBe('2026-11-29T10:59:30.000Z');
  });

  it('looks back a little before what it saw, never before a type began', () => {
    const seen = '2026-11-29T12:00:00.000Z';
    const state = { types: { [ARTICLE]: { from: T0, seen }, [PAGE]: { from: T1, seen: T1 } } };
    // The article looks back LOOK_BACK_MS before 12:00; the page not before 11:00, when it began.
    expect(sweepSince(state)).toEqual(new Date(Date.parse(T1)));
    expect(sweepSince({ types: { [ARTICLE]: { from: T0, seen } } })).toEqual(new Date(Date.parse(seen) - LOOK_BACK_MS));
    expect(sweepSince({ types: {} })).toBeNull();
  });

  it('keeps a type still verifying, drops one turned off, which begins anew when turned on again', () => {
    const saved = { types: { [ARTICLE]: { from: T0, seen: T0 }, [PAGE]: { from: T0, seen: T0 } } };
    const kept = currentSweep(saved, [ARTICLE], at(T1));
    expect(kept).toEqual({ state: { types: { [ARTICLE]: { from: T0, seen: T0 } } }, changed: true });
    expect(currentSweep(kept.state, [ARTICLE], at(T1)).changed).toBe(false);
    const begun = new Date(Date.parse(T1) - PASS_EVERY_MS).toISOString();
    expect(currentSweep(kept.state, [ARTICLE, PAGE], at(T1)).state.types[PAGE]).toEqual({ from: begun, seen: begun });
  });

  it('has seen every store up to now after a read that was not cut, else up to the latest of each type it read', () => {
    const state = { types: { [ARTICLE]: { from: T0, seen: T0 }, [PAGE]: { from: T0, seen: T0 } } };
    const stored = [{ contentType: ARTICLE, completedAt: '2026-11-29T10:30:00.000Z' }];
    expect(afterSweep(state, stored, true, at(T1)).types).toEqual({ [ARTICLE]: { from: T0, seen: T1 }, [PAGE]: { from: T0, seen: T1 } });
    expect(afterSweep(state, stored, false, at(T1)).types).toEqual({
      [ARTICLE]: { from: T0, seen: '2026-11-29T10:30:00.000Z' },
      [PAGE]: { from: T0, seen: T0 },
    });
    // Never backwards.
    expect(afterSweep({ types: { [ARTICLE]: { from: T0, seen: T1 } } }, stored, false, at(T1)).types[ARTICLE].seen).toBe(T1);
  });

  it('checks a store at the very moment a type began to verify, and not one a millisecond before', () => {
    const state = { types: { [ARTICLE]: { from: T0, seen: T0 } } };
    expect(isChecked(state, { contentType: ARTICLE, completedAt: T0 })).toBe(true);
    expect(isChecked(state, { contentType: ARTICLE, completedAt: '2026-11-29T09:59:59.999Z' })).toBe(false);
    expect(isChecked(state, { contentType: ARTICLE, completedAt: '2026-11-29T10:00:00.001Z' })).toBe(true);
  });

  it('looks back exactly LOOK_BACK_MS before what it saw, or exactly from a type’s beginning when that is later', () => {
    const seen = '2026-11-29T10:05:00.000Z';
    // Five minutes after the beginning: looking back reaches the beginning itself.
    expect(sweepSince({ types: { [ARTICLE]: { from: T0, seen } } })).toEqual(new Date(Date.parse(seen) - LOOK_BACK_MS));
    expect(sweepSince({ types: { [ARTICLE]: { from: T0, seen } } })).toEqual(at(T0));
    // A millisecond less: the beginning wins.
    expect(sweepSince({ types: { [ARTICLE]: { from: T0, seen: '2026-11-29T10:04:59.999Z' } } })).toEqual(at(T0));
    // A millisecond more: looking back wins.
    expect(sweepSince({ types: { [ARTICLE]: { from: T0, seen: '2026-11-29T10:05:00.001Z' } } })).toEqual(at('2026-11-29T10:00:00.001Z'));
  });

  it('moves what it saw to a store at exactly what it saw, or later, and never to one before', () => {
    const state = { types: { [ARTICLE]: { from: T0, seen: T1 } } };
    const at1 = afterSweep(state, [{ contentType: ARTICLE, completedAt: T1 }], false, at(T1)).types[ARTICLE].seen;
    expect(at1).toBe(T1);
    const later = '2026-11-29T11:00:00.001Z';
    expect(afterSweep(state, [{ contentType: ARTICLE, completedAt: later }], false, at(T1)).types[ARTICLE].seen).toBe(later);
    expect(afterSweep(state, [{ contentType: ARTICLE, completedAt: '2026-11-29T10:59:59.999Z' }], false, at(T1)).types[ARTICLE].seen).toBe(
      T1
    );
    // A store without its time, or of another type, moves nothing.
    expect(
      afterSweep(
        state,
        [
          { contentType: ARTICLE, completedAt: null },
          { contentType: PAGE, completedAt: later },
        ],
        false,
        at(T1)
      ).types[ARTICLE].seen
    ).toBe(T1);
  });
});
