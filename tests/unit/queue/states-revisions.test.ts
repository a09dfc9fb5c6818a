import { MAX_REVISIONS, changedSpans, revisionCause, revisionsAfterStore } from '../../../server/src/queue/domain/states/revisions';
import { transition, type TransitionResult } from '../../../server/src/queue/domain/states';
import type { StoredPart } from '../../../server/src/queue/domain/states/segment-map';
import { narrationState } from './fixtures';

/** A part of a joined MP3 at `startMs`, `seconds` long. */
const part = (key: string, startMs: number, seconds: number): StoredPart => ({
  key,
  characters: 100,
  audioOffset: 0,
  audioLength: 0,
  durationSeconds: seconds,
  offsetMs: startMs,
  cueFirst: 0,
  cueCount: 1,
});

const before = [part('a', 0, 4), part('b', 4_000, 5.5), part('c', 9_500, 3), part('d', 12_500, 2)];
const at = new Date('2026-12-03T09:30:00.000Z');

function applied(result: TransitionResult) {
  if (result.kind !== 'apply') throw new Error(`ignored: ${result.reason}`);
  return result;
}

describe('what caused a stored version', () => {
  it('is the first narration until one was stored, whatever asked for it', () => {
    expect(revisionCause({ narratedFingerprint: null, submittedFingerprint: 'v1', cause: 'regenerate' })).toBe('first');
    // Stored before first dates were kept: its store count says it is not new.
    expect(revisionCause({ narratedFingerprint: 'v1', submittedFingerprint: 'v1', stores: 3 })).toBe('regenerate');
  });

  it('tells an edit (new text) from a regenerate (same text) and from a failed check', () => {
    const stored = { firstCompletedAt: '2026-11-01T00:00:00.000Z', stores: 1 };
    expect(revisionCause({ ...stored, narratedFingerprint: 'v1', submittedFingerprint: 'v2', cause: 'admin-publish' })).toBe('edit');
    expect(revisionCause({ ...stored, narratedFingerprint: 'v1', submittedFingerprint: 'v1', cause: 'regenerate' })).toBe('regenerate');
    expect(revisionCause({ ...stored, narratedFingerprint: 'v1', submittedFingerprint: 'v1', cause: 'verification' })).toBe('verification');
    expect(revisionCause({ ...stored, narratedFingerprint: 'v1', submittedFingerprint: 'v2', cause: 'verification' })).toBe('verification');
  });
});

describe('the passages a new joined file reads anew', () => {
  it('are the parts whose key the stored audio did not have, at their times in the new audio', () => {
    // "b" edited: a new key where b was; the parts after it moved by half a second.
    const after = [part('a', 0, 4), part('b2', 4_000, 6), part('c', 10_000, 3), part('d', 13_000, 2)];
    expect(changedSpans(before, after, [])).toEqual({ spans: [{ start: 4, end: 10 }], passages: 1 });
  });

  it('join neighbours into one span and count each passage', () => {
    const after = [part('a', 0, 4), part('x', 4_000, 5), part('y', 9_000, 2.25), part('d', 11_250, 2), part('z', 13_250, 1)];
    expect(changedSpans(before, after, [])).toEqual({
      spans: [
        { start: 4, end: 11.25 },
        { start: 13.25, end: 14.25 },
      ],
      passages: 3,
    });
  });

  it('include the parts taken afresh though their key is kept (a check asked for them)', () => {
    expect(changedSpans(before, before, ['c'])).toEqual({ spans: [{ start: 9.5, end: 12.5 }], passages: 1 });
  });

  it('are none when every part is new, or the audio was whole before or now (the whole audio changed)', () => {
    expect(changedSpans(before, [part('p', 0, 3), part('q', 3_000, 3)], [])).toEqual({ spans: [], passages: 0 });
    expect(changedSpans(null, before, [])).toEqual({ spans: [], passages: 0 });
    expect(changedSpans(before, null, [])).toEqual({ spans: [], passages: 0 });
    expect(changedSpans(before, before, [])).toEqual({ spans: [], passages: 0 });
  });
});

describe('the revisions of a row', () => {
  it('put the newest first and keep at most 20', () => {
    let state = narrationState({ status: 'storing', submittedFingerprint: 'v1' });
    let revisions = revisionsAfterStore(state, null, at);
    expect(revisions).toEqual([{ at: at.toISOString(), cause: 'first', changed: [], passages: 0 }]);
    for (let take = 1; take <= 25; take += 1) {
      state = { ...state, firstCompletedAt: at.toISOString(), narratedFingerprint: 'v1', revisions };
      revisions = revisionsAfterStore(state, null, new Date(at.getTime() + take * 60_000));
    }
    expect(revisions).toHaveLength(MAX_REVISIONS);
    expect(revisions[0]).toMatchObject({ cause: 'regenerate', at: new Date(at.getTime() + 25 * 60_000).toISOString() });
    expect(revisions[MAX_REVISIONS - 1].at).toBe(new Date(at.getTime() + 6 * 60_000).toISOString());
  });

  it('are written by the store that links the new files, with the segmented edit’s passages', () => {
    const earlier = { at: '2026-11-01T00:00:00.000Z', cause: 'first' as const, changed: [], passages: 0 };
    const storing = narrationState({
      status: 'storing',
      fingerprint: 'v2',
      submittedFingerprint: 'v2',
      narratedFingerprint: 'v1',
      submissions: 2,
      firstCompletedAt: earlier.at,
      segments: before,
      revisions: [earlier],
    });
    const after = [part('a', 0, 4), part('b', 4_000, 5.5), part('c2', 9_500, 3.5), part('d', 13_000, 2)];
    const files = { audio: 1, subtitles: 2, subtitlesVtt: 3 };
    const { patch } = applied(transition(storing, { type: 'stored', owner: 'w', files, segments: after, now: at }));
    expect(patch.revisions).toEqual([{ at: at.toISOString(), cause: 'edit', changed: [{ start: 9.5, end: 13 }], passages: 1 }, earlier]);
  });
});
