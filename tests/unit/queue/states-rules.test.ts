import {
  holdsEmptyResult,
  IN_FLIGHT_STATUSES,
  transition,
  type NarrationEvent,
  type NarrationState,
} from '../../../server/src/queue/domain/states';
import { storedKeys } from '../../../server/src/queue/domain/states/segment-map';
import { NARRATION_STATUSES } from '../../../shared/contracts/narrations';
import { narrationState } from './fixtures';

/**
 * The rules of the state table that the scenario tests (narration-states.test.ts) leave implicit:
 * what each compare-and-set expects, what each guard holds, and the edges of each decision.
 */

const now = new Date('2026-01-01T00:00:00Z');
const urls = { audioFile: 'https://cdn.test/a.mp3', srtFile: 'https://cdn.test/a.srt' };
const files = { audio: 11, subtitles: 12, subtitlesVtt: 13 };

function applied(result: ReturnType<typeof transition>) {
  if (result.kind !== 'apply') throw new Error(`expected a transition, got ignore: ${result.reason}`);
  return result;
}

describe('what each transition expects the row to be in (its compare-and-set)', () => {
  const cases: Array<[string, Partial<NarrationState>, NarrationEvent]> = [
    ['a new version, queued', { status: 'completed', narratedFingerprint: 'v1' }, { type: 'contentChanged', fingerprint: 'v2', now }],
    ['a new version, in flight', { status: 'awaiting_callback' }, { type: 'contentChanged', fingerprint: 'v2', now }],
    ['a regenerate', { status: 'completed', narratedFingerprint: 'v1' }, { type: 'regenerateRequested', now }],
    [
      'a regenerate of some parts',
      { status: 'completed', narratedFingerprint: 'v1' },
      { type: 'partsRegenerateRequested', keys: ['p1'], now },
    ],
    ['a cancel', { status: 'queued' }, { type: 'cancelled' }],
    ['a claim', { status: 'queued' }, { type: 'claimed', owner: 'w1', leaseMs: 60_000, now }],
    ['a claim handed back', { status: 'submitting' }, { type: 'claimReturned' }],
    ['an accepted request', { status: 'submitting' }, { type: 'submitAccepted', callbackTimeoutMs: 1_000, now }],
    ['a 409', { status: 'submitting' }, { type: 'submitAlreadyProcessing', callbackTimeoutMs: 1_000, now }],
    [
      'a deferred request',
      { status: 'submitting' },
      { type: 'submitDeferred', retryAt: now, reason: 'busy', code: 'RATE_LIMITED', countsAsAttempt: false, maxAttempts: 3 },
    ],
    ['a budget hold', { status: 'submitting' }, { type: 'budgetHeld', reason: 'over', until: now }],
    ['a pause', { status: 'submitting' }, { type: 'submitPaused', reason: 'no credits', code: 'INSUFFICIENT_CREDITS' }],
    ['a rejection', { status: 'submitting' }, { type: 'submitRejected', reason: 'bad text', code: 'VALIDATION_ERROR' }],
    ['a result', { status: 'awaiting_callback' }, { type: 'callbackWithFiles', urls, now }],
    [
      'an old result for a new version',
      { status: 'awaiting_callback', fingerprint: 'v2', submittedFingerprint: 'v2', narratedFingerprint: 'v1', seenResults: [urls] },
      { type: 'callbackWithFiles', urls, now },
    ],
    ['a result without files', { status: 'awaiting_callback' }, { type: 'callbackWithoutFiles', maxAttempts: 3, graceMs: 1_000, now }],
    [
      'an empty answer to the check',
      { status: 'awaiting_callback', noAudioCheck: true },
      { type: 'callbackWithoutFiles', maxAttempts: 3, graceMs: 1_000, now },
    ],
    ['a callback that never came', { status: 'awaiting_callback', attempts: 1 }, { type: 'callbackTimedOut', maxAttempts: 3, now }],
    ['a store claimed', { status: 'storing' }, { type: 'storeClaimed', owner: 'w1', leaseMs: 60_000, maxAttempts: 3, now }],
    [
      'a store out of attempts',
      { status: 'storing', storeAttempts: 3 },
      { type: 'storeClaimed', owner: 'w1', leaseMs: 60_000, maxAttempts: 3, now },
    ],
    ['a store renewed', { status: 'storing', leaseOwner: 'w1' }, { type: 'leaseRenewed', owner: 'w1', leaseMs: 60_000, now }],
    ['a submission renewed', { status: 'submitting', leaseOwner: 'w1' }, { type: 'leaseRenewed', owner: 'w1', leaseMs: 60_000, now }],
    ['a stored result', { status: 'storing', leaseOwner: 'w1' }, { type: 'stored', owner: 'w1', files, now }],
    [
      'a store deferred',
      { status: 'storing', storeAttempts: 1 },
      { type: 'storeDeferred', owner: 'w1', retryAt: now, reason: 'timeout', code: 'MEDIA_TIMEOUT', maxAttempts: 3 },
    ],
    [
      'a store deferred past its attempts',
      { status: 'storing', storeAttempts: 3 },
      { type: 'storeDeferred', owner: 'w1', retryAt: now, reason: 'timeout', code: 'MEDIA_TIMEOUT', maxAttempts: 3 },
    ],
    ['a store failed', { status: 'storing' }, { type: 'storeFailed', owner: 'w1', reason: 'not an MP3', code: 'BAD_MEDIA' }],
    ['a store abandoned', { status: 'storing', storeAttempts: 1 }, { type: 'storeAbandoned', owner: 'w1', now }],
    ['a submission recovered', { status: 'submitting', leaseOwner: 'w1' }, { type: 'leaseExpired', now }],
    ['a store recovered', { status: 'storing', leaseOwner: 'w1' }, { type: 'leaseExpired', now }],
    [
      'a plan',
      { status: 'submitting' },
      { type: 'partsPlanned', owner: 'w1', plan: [], allReady: false, characters: 10, credits: 10, now },
    ],
    ['parts all in', { status: 'awaiting_parts' }, { type: 'partsReady', now }],
    ['a part failed', { status: 'awaiting_parts' }, { type: 'partFailed', reason: 'part 2 failed', code: 'PART_FAILED' }],
    ['parts lost', { status: 'storing' }, { type: 'partsLost', owner: 'w1', reason: 'gone', segments: null, now }],
  ];

  it.each(cases)('%s: exactly the status it was decided in', (_name, fields, event) => {
    const state = narrationState(fields);
    expect(applied(transition(state, event)).from).toEqual([state.status]);
  });

  it('removing replaced files expects any status: only a store replaces files, and its guard sees one', () => {
    const result = applied(
      transition(narrationState({ status: 'queued', replacedFilesWaiting: true, stores: 2 }), { type: 'replacedFilesRemoved' })
    );
    expect(result.from).toEqual([...NARRATION_STATUSES]);
    expect(result.guard.counters).toEqual({ stores: 2 });
  });
});

describe('the guards', () => {
  it('recovering a lease nobody holds asks for no owner; one held asks for that owner', () => {
    const free = applied(transition(narrationState({ status: 'storing', leaseOwner: null }), { type: 'leaseExpired', now }));
    expect(free.guard).not.toHaveProperty('leaseOwner');
    expect(free.guard.leaseExpiredBefore).toEqual(now);
    const held = applied(transition(narrationState({ status: 'storing', leaseOwner: 'w1' }), { type: 'leaseExpired', now }));
    expect(held.guard.leaseOwner).toBe('w1');
  });

  it("a claim or a callback is guarded by no lease holder's name (only the lease holder's own events are)", () => {
    const claim = applied(transition(narrationState({ status: 'queued' }), { type: 'claimed', owner: 'w1', leaseMs: 1_000, now }));
    expect(claim.guard).not.toHaveProperty('leaseOwner');
    const callback = applied(transition(narrationState({ status: 'awaiting_callback' }), { type: 'callbackWithFiles', urls, now }));
    expect(callback.guard).not.toHaveProperty('leaseOwner');
  });

  it('a claim holds the lease for exactly leaseMs from now', () => {
    const { patch } = applied(transition(narrationState({ status: 'queued' }), { type: 'claimed', owner: 'w1', leaseMs: 60_000, now }));
    expect(patch.leaseExpiresAt).toEqual(new Date(now.getTime() + 60_000));
  });
});

describe('content changes, regenerate and cancel', () => {
  it('the same version is queued again after a cancel or a failure (nothing of it is on its way)', () => {
    for (const status of ['cancelled', 'failed'] as const) {
      const { patch } = applied(
        transition(narrationState({ status, fingerprint: 'v1' }), { type: 'contentChanged', fingerprint: 'v1', now })
      );
      expect(patch).toMatchObject({ status: 'queued', fingerprint: 'v1' });
    }
  });

  it('a completed narration is left alone for the version it narrated, even after a newer one was seen', () => {
    const state = narrationState({ status: 'completed', fingerprint: 'v2', narratedFingerprint: 'v1', submissions: 1 });
    expect(transition(state, { type: 'contentChanged', fingerprint: 'v1', now }).kind).toBe('ignore');
  });

  it('a new version while one is on its way is only remembered: nothing else of the row changes', () => {
    for (const status of ['submitting', 'awaiting_callback', 'storing'] as const) {
      const { patch } = applied(
        transition(narrationState({ status, fingerprint: 'v1' }), { type: 'contentChanged', fingerprint: 'v2', now })
      );
      expect(patch).toEqual({ fingerprint: 'v2' });
    }
  });

  it('a new version queued wants no fresh take and owes no lost credits', () => {
    const state = narrationState({ status: 'failed', fingerprint: 'v1', freshWanted: true, creditsMayBeLost: true });
    const { patch } = applied(transition(state, { type: 'contentChanged', fingerprint: 'v2', now }));
    expect(patch.freshWanted).toBe(false);
    expect(patch.creditsMayBeLost).toBe(false);
  });

  it('nothing to cancel once completed or cancelled', () => {
    for (const status of ['completed', 'cancelled'] as const)
      expect(transition(narrationState({ status }), { type: 'cancelled' }).kind).toBe('ignore');
  });
});

describe('callbacks', () => {
  it('an old result that comes during a check of an empty one proves nothing: it is held as an empty one, and only its hold running out pays', () => {
    const state = narrationState({
      status: 'awaiting_callback',
      fingerprint: 'v2',
      submittedFingerprint: 'v2',
      narratedFingerprint: 'v1',
      seenResults: [urls],
      noAudioCheck: true,
    });
    const { patch } = applied(transition(state, { type: 'callbackWithFiles', urls, graceMs: 30_000, now }));
    expect(patch).toEqual({ lastError: expect.any(String), lastErrorCode: 'NO_AUDIO', callbackDeadline: new Date(now.getTime() + 30_000) });
    const held = { ...state, ...patch };
    expect(holdsEmptyResult(held)).toBe(true);
    // Replayed again, or without a hold to give: nothing more.
    expect(transition(held, { type: 'callbackWithFiles', urls, graceMs: 30_000, now }).kind).toBe('ignore');
    expect(transition(state, { type: 'callbackWithFiles', urls, now }).kind).toBe('ignore');
    // New audio still wins while it is held.
    const fresh = { audioFile: 'https://cdn.test/b.mp3', srtFile: 'https://cdn.test/b.srt' };
    expect(applied(transition(held, { type: 'callbackWithFiles', urls: fresh, graceMs: 30_000, now })).patch.status).toBe('storing');
    // The hold runs out: the one paid retry.
    expect(applied(transition(held, { type: 'callbackTimedOut', maxAttempts: 3, now })).patch).toMatchObject({
      status: 'queued',
      regenerate: true,
      noAudioCheck: false,
    });
  });

  it('outside a check, an old result for a version never generated asks for it with regenerate', () => {
    const state = narrationState({
      status: 'awaiting_callback',
      fingerprint: 'v2',
      submittedFingerprint: 'v2',
      narratedFingerprint: 'v1',
      seenResults: [urls],
      noAudioCheck: false,
    });
    const { patch } = applied(transition(state, { type: 'callbackWithFiles', urls, graceMs: 30_000, now }));
    expect(patch).toMatchObject({ status: 'queued', regenerate: true, noAudioCheck: false });
  });

  it('remembers the results seen, the last twenty, a first one too', () => {
    const first = applied(
      transition(narrationState({ status: 'awaiting_callback', seenResults: undefined }), { type: 'callbackWithFiles', urls, now })
    );
    expect(first.patch.seenResults).toEqual([urls]);
    const older = Array.from({ length: 20 }, (_, index) => ({
      audioFile: `https://cdn.test/${index}.mp3`,
      srtFile: `https://cdn.test/${index}.srt`,
    }));
    const { patch } = applied(
      transition(narrationState({ status: 'awaiting_callback', seenResults: older }), { type: 'callbackWithFiles', urls, now })
    );
    expect(patch.seenResults).toEqual([...older.slice(1), urls]);
  });

  it('a result is a replay only when both its files are the ones seen', () => {
    const seen = [{ audioFile: urls.audioFile, srtFile: 'https://cdn.test/other.srt' }];
    const state = narrationState({ status: 'awaiting_callback', regenerate: true, seenResults: seen });
    expect(applied(transition(state, { type: 'callbackWithFiles', urls, now })).patch.status).toBe('storing');
    const replayed = narrationState({ status: 'awaiting_callback', regenerate: true, seenResults: [urls] });
    expect(transition(replayed, { type: 'callbackWithFiles', urls, now }).kind).toBe('ignore');
  });

  it('an empty result is held only while awaiting the answer to a check that said NO_AUDIO', () => {
    const held = { status: 'awaiting_callback', noAudioCheck: true, lastErrorCode: 'NO_AUDIO' } as const;
    expect(holdsEmptyResult(held)).toBe(true);
    expect(holdsEmptyResult({ ...held, status: 'queued' })).toBe(false);
    expect(holdsEmptyResult({ ...held, noAudioCheck: false })).toBe(false);
    expect(holdsEmptyResult({ ...held, lastErrorCode: 'CALLBACK_TIMEOUT' })).toBe(false);
  });

  it('only submitting and awaiting a callback count against the requests in flight (a segmented article waits on its parts)', () => {
    expect([...IN_FLIGHT_STATUSES].sort()).toEqual(['awaiting_callback', 'submitting']);
  });
});

describe('leases', () => {
  it('renews only a lease that exists: a row submitting or storing', () => {
    expect(transition(narrationState({ status: 'queued' }), { type: 'leaseRenewed', owner: 'w1', leaseMs: 1_000, now }).kind).toBe(
      'ignore'
    );
  });

  it('recovers nothing from a row nobody works on', () => {
    for (const status of ['queued', 'awaiting_callback', 'completed'] as const) {
      expect(transition(narrationState({ status }), { type: 'leaseExpired', now }).kind).toBe('ignore');
    }
  });
});

describe('storing', () => {
  it('gives up when the attempts are used up, keeping the last cause and its code, or STORE_FAILED', () => {
    const claim = { type: 'storeClaimed', owner: 'w1', leaseMs: 1_000, maxAttempts: 3, now } as const;
    const withCause = applied(
      transition(
        narrationState({ status: 'storing', storeAttempts: 3, lastError: 'The media host timed out.', lastErrorCode: 'MEDIA_TIMEOUT' }),
        claim
      )
    );
    expect(withCause.patch).toMatchObject({ status: 'failed', lastErrorCode: 'MEDIA_TIMEOUT' });
    expect(withCause.patch.lastError).toContain('The media host timed out.');
    const without = applied(transition(narrationState({ status: 'storing', storeAttempts: 3 }), claim));
    expect(without.patch).toMatchObject({ status: 'failed', lastErrorCode: 'STORE_FAILED' });
  });

  it('a stored result with no newer version waiting is due for nothing more', () => {
    const { patch } = applied(
      transition(narrationState({ status: 'storing', fingerprint: 'v1', submittedFingerprint: 'v1' }), {
        type: 'stored',
        owner: 'w1',
        files,
        now,
      })
    );
    expect(patch).toMatchObject({ status: 'completed', nextAttemptAt: null });
    expect(patch).toHaveProperty('nextAttemptAt', null);
  });

  it('a failed store fails the row with its code', () => {
    const { patch } = applied(
      transition(narrationState({ status: 'storing' }), { type: 'storeFailed', owner: 'w1', reason: 'not an MP3', code: 'BAD_MEDIA' })
    );
    expect(patch).toMatchObject({ status: 'failed', lastErrorCode: 'BAD_MEDIA', nextAttemptAt: null });
  });

  it('an abandoned store gives back the attempt its claim counted, never below none', () => {
    const abandon = { type: 'storeAbandoned', owner: 'w1', now } as const;
    expect(applied(transition(narrationState({ status: 'storing', storeAttempts: 2 }), abandon)).patch.storeAttempts).toBe(1);
    expect(applied(transition(narrationState({ status: 'storing', storeAttempts: undefined }), abandon)).patch.storeAttempts).toBe(0);
  });
});

describe('segmented narrations', () => {
  it('a plan ends any check of an empty result', () => {
    const { patch } = applied(
      transition(narrationState({ status: 'submitting', noAudioCheck: true }), {
        type: 'partsPlanned',
        owner: 'w1',
        plan: [],
        allReady: false,
        characters: 1,
        credits: 1,
        now,
      })
    );
    expect(patch.noAudioCheck).toBe(false);
  });

  it('parts are lost only while joining', () => {
    expect(
      transition(narrationState({ status: 'queued' }), { type: 'partsLost', owner: 'w1', reason: 'gone', segments: null, now }).kind
    ).toBe('ignore');
  });

  it('no stored map holds no key', () => {
    expect(storedKeys(null).size).toBe(0);
    expect(storedKeys(undefined).size).toBe(0);
  });
});

describe('submissions', () => {
  it('a rejection says no credits may be lost unless the service said so', () => {
    const { patch } = applied(
      transition(narrationState({ status: 'submitting' }), { type: 'submitRejected', reason: 'bad', code: 'VALIDATION_ERROR' })
    );
    expect(patch.creditsMayBeLost).toBe(false);
    expect(patch.submissions).toBe(0);
  });

  it('a request the service charged and failed at once is asked again with regenerate true', () => {
    for (const code of ['PROCESSING_ERROR', 'REFUND_FAILED']) {
      const failed = applied(
        transition(narrationState({ status: 'submitting', fingerprint: 'f1' }), { type: 'submitRejected', reason: 'failed', code })
      );
      expect(failed.patch.submissions).toBe(1);
      const retried = applied(
        transition(narrationState({ ...failed.patch, status: 'failed', fingerprint: 'f1' }), {
          type: 'contentChanged',
          fingerprint: 'f1',
          now: new Date(),
        })
      );
      expect(retried.patch).toMatchObject({ status: 'queued', regenerate: true });
    }
  });
});
