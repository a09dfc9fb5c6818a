import { transition } from '../../../server/src/queue/domain/states';
import { narrationState } from './fixtures';

const now = new Date('2026-01-01T00:00:00Z');

const files = { audio: 11, subtitles: 12, subtitlesVtt: 13 };
const urls = { audioFile: 'https://cdn.test/a.mp3', srtFile: 'https://cdn.test/a.srt' };
const newUrls = { audioFile: 'https://cdn.test/b.mp3', srtFile: 'https://cdn.test/b.srt' };

function applied(result: ReturnType<typeof transition>) {
  if (result.kind !== 'apply') throw new Error(`expected a transition, got ignore: ${result.reason}`);
  return result;
}

describe('narration state machine (spec 3.1 as the client sees it)', () => {
  describe('content changes', () => {
    it('queues a first version with regenerate false', () => {
      const fresh = narrationState({ status: 'cancelled', fingerprint: null });
      const { patch } = applied(transition(fresh, { type: 'contentChanged', fingerprint: 'v1', now }));
      expect(patch).toMatchObject({ status: 'queued', fingerprint: 'v1', regenerate: false, attempts: 0 });
    });

    it('ignores an unchanged republish of a narrated article (no charge)', () => {
      const done = narrationState({
        status: 'completed',
        fingerprint: 'v1',
        submittedFingerprint: 'v1',
        narratedFingerprint: 'v1',
        submissions: 1,
      });
      expect(transition(done, { type: 'contentChanged', fingerprint: 'v1', now }).kind).toBe('ignore');
    });

    it('ignores an unchanged republish while the same version is queued or in flight', () => {
      for (const status of ['queued', 'submitting', 'awaiting_callback', 'storing'] as const) {
        expect(transition(narrationState({ status, fingerprint: 'v1' }), { type: 'contentChanged', fingerprint: 'v1', now }).kind).toBe(
          'ignore'
        );
      }
    });

    it('queues an edited version with regenerate true', () => {
      const done = narrationState({
        status: 'completed',
        fingerprint: 'v1',
        submittedFingerprint: 'v1',
        narratedFingerprint: 'v1',
        submissions: 1,
      });
      const { patch } = applied(transition(done, { type: 'contentChanged', fingerprint: 'v2', now }));
      expect(patch).toMatchObject({ status: 'queued', fingerprint: 'v2', regenerate: true });
    });

    it('asks with regenerate true when the service was asked before or the audio is stored, either one alone', () => {
      // Asked before, never narrated (the first request failed): the service knows the articleId,
      // and without regenerate it would hand back what it has instead of the new text.
      const askedOnly = narrationState({ status: 'failed', fingerprint: 'v1', submittedFingerprint: 'v1', submissions: 1 });
      // Narrated, with no request counted (a row that came with its audio).
      const storedOnly = narrationState({ status: 'completed', fingerprint: 'v1', narratedFingerprint: 'v1', submissions: 0 });
      for (const row of [askedOnly, storedOnly]) {
        expect(applied(transition(row, { type: 'contentChanged', fingerprint: 'v2', now })).patch).toMatchObject({ regenerate: true });
        expect(applied(transition(row, { type: 'regenerateRequested', now })).patch).toMatchObject({ regenerate: true, freshWanted: true });
      }
      const never = narrationState({ status: 'failed', fingerprint: 'v1', submissions: 0 });
      expect(applied(transition(never, { type: 'regenerateRequested', now })).patch).toMatchObject({
        regenerate: false,
        freshWanted: false,
      });
    });

    it('remembers a new version during generation instead of submitting (it would get 409)', () => {
      const busy = narrationState({ status: 'awaiting_callback', fingerprint: 'v1', submittedFingerprint: 'v1', submissions: 1 });
      const result = applied(transition(busy, { type: 'contentChanged', fingerprint: 'v2', now }));
      expect(result.patch).toEqual({ fingerprint: 'v2' });
      expect(result.from).toEqual(['awaiting_callback']);
    });

    it('after storing an older version, queues the newer one with regenerate true', () => {
      const storing = narrationState({ status: 'storing', fingerprint: 'v2', submittedFingerprint: 'v1', submissions: 1 });
      const { patch } = applied(transition(storing, { type: 'stored', owner: 'a', files, now }));
      expect(patch).toMatchObject({ status: 'queued', regenerate: true, narratedFingerprint: 'v1' });
    });

    it("records the stored MP3's duration and exact byte length with its files", () => {
      const storing = narrationState({ status: 'storing', fingerprint: 'v1', submittedFingerprint: 'v1', submissions: 1 });
      const stored = { type: 'stored', owner: 'a', files, durationSeconds: 3.08, audioBytes: 18494, now } as const;
      expect(applied(transition(storing, stored)).patch).toMatchObject({ status: 'completed', durationSeconds: 3.08, audioBytes: 18494 });
      // Left out (a caller that measured nothing): null, never the previous file's figures.
      expect(applied(transition(storing, { type: 'stored', owner: 'a', files, now })).patch).toMatchObject({ audioBytes: null });
    });

    it('dates the first audio once: a later take keeps that date (a podcast episode keeps its place)', () => {
      const first = applied(transition(narrationState({ status: 'storing', submissions: 1 }), { type: 'stored', owner: 'a', files, now }));
      expect(first.patch.firstCompletedAt).toBe(now);
      const earlier = '2026-01-02T03:04:05.000Z';
      const again = narrationState({ status: 'storing', submissions: 2, firstCompletedAt: earlier });
      const later = applied(transition(again, { type: 'stored', owner: 'a', files, now }));
      expect(later.patch.completedAt).toBe(now);
      expect(later.patch).not.toHaveProperty('firstCompletedAt');
    });
  });

  describe('submission', () => {
    it('claims only a queued narration', () => {
      expect(applied(transition(narrationState(), { type: 'claimed', owner: 'a', leaseMs: 1000, now })).patch.status).toBe('submitting');
      expect(transition(narrationState({ status: 'submitting' }), { type: 'claimed', owner: 'b', leaseMs: 1000, now }).kind).toBe('ignore');
    });

    it('returns a claim to the queue untouched: no attempt counted, no error, no delay', () => {
      const claimed = narrationState({
        status: 'submitting',
        leaseOwner: 'a',
        leaseExpiresAt: new Date(now.getTime() + 1000),
        attempts: 1,
      });
      const { patch, from } = applied(transition(claimed, { type: 'claimReturned' }));
      expect(from).toEqual(['submitting']);
      expect(patch).toEqual({ status: 'queued', leaseOwner: null, leaseExpiresAt: null });
      expect(transition(narrationState({ status: 'awaiting_callback' }), { type: 'claimReturned' }).kind).toBe('ignore');
    });

    it('202 moves to awaiting_callback with a deadline and counts the attempt', () => {
      const { patch, from } = applied(
        transition(narrationState({ status: 'submitting' }), { type: 'submitAccepted', callbackTimeoutMs: 60_000, now })
      );
      expect(from).toEqual(['submitting']);
      expect(patch).toMatchObject({ status: 'awaiting_callback', submittedFingerprint: 'v1', attempts: 1, submissions: 1 });
      expect((patch.callbackDeadline as Date).getTime()).toBe(now.getTime() + 60_000);
    });

    it('409 ALREADY_PROCESSING waits for the callback and does not count as a new paid submission', () => {
      const { patch } = applied(
        transition(narrationState({ status: 'submitting', attempts: 1, submissions: 1 }), {
          type: 'submitAlreadyProcessing',
          callbackTimeoutMs: 1000,
          now,
        })
      );
      expect(patch).toMatchObject({ status: 'awaiting_callback', attempts: 1, submissions: 1 });
    });

    it('a deferred submission returns to the queue until the attempts run out', () => {
      const retryAt = new Date(now.getTime() + 4000);
      const first = applied(
        transition(narrationState({ status: 'submitting', attempts: 0 }), {
          type: 'submitDeferred',
          retryAt,
          reason: 'down',
          code: 'INTERNAL_ERROR',
          countsAsAttempt: true,
          maxAttempts: 3,
        })
      );
      expect(first.patch).toMatchObject({ status: 'queued', attempts: 1, nextAttemptAt: retryAt });
      const last = applied(
        transition(narrationState({ status: 'submitting', attempts: 2 }), {
          type: 'submitDeferred',
          retryAt,
          reason: 'down',
          code: 'INTERNAL_ERROR',
          countsAsAttempt: true,
          maxAttempts: 3,
        })
      );
      expect(last.patch.status).toBe('failed');
      expect(last.patch.lastError).toMatch(/Gave up after 3 attempt/);
    });

    it('a failure that may have reached the service is retried with regenerate false, never paying twice', () => {
      const retryAt = new Date(now.getTime() + 1000);
      const submitting = narrationState({
        status: 'submitting',
        regenerate: true,
        attempts: 0,
        fingerprint: 'v2',
        narratedFingerprint: 'v1',
        seenResults: [{ audioFile: 'https://m/v1.mp3', srtFile: 'https://m/v1.srt' }],
      });
      const deferred = applied(
        transition(submitting, {
          type: 'submitDeferred',
          retryAt,
          reason: 'timeout',
          code: 'SERVICE_UNAVAILABLE',
          countsAsAttempt: true,
          maxAttempts: 3,
          outcomeUnknown: true,
        })
      );
      expect(deferred.patch).toMatchObject({ status: 'queued', regenerate: false, attempts: 1, nextAttemptAt: retryAt });
      // A failure that certainly did not reach the service keeps asking for the new generation.
      const refused = applied(
        transition(submitting, {
          type: 'submitDeferred',
          retryAt,
          reason: 'refused',
          code: 'SERVICE_UNAVAILABLE',
          countsAsAttempt: true,
          maxAttempts: 3,
          outcomeUnknown: false,
        })
      );
      expect(refused.patch.regenerate).toBeUndefined();

      // The request never arrived: the free re-ask brings the old audio back, and only then is v2 paid for.
      const awaiting = { ...submitting, ...deferred.patch, status: 'awaiting_callback' as const, submittedFingerprint: 'v2' };
      const oldAgain = applied(
        transition(awaiting, { type: 'callbackWithFiles', urls: { audioFile: 'https://m/v1.mp3', srtFile: 'https://m/v1.srt' }, now })
      );
      expect(oldAgain.patch).toMatchObject({ status: 'queued', regenerate: true });
      // It did arrive: the new result comes (re-delivered for free) and is stored.
      const fresh = applied(
        transition(awaiting, { type: 'callbackWithFiles', urls: { audioFile: 'https://m/v2.mp3', srtFile: 'https://m/v2.srt' }, now })
      );
      expect(fresh.patch.status).toBe('storing');
    });

    it('rate limiting does not use up attempts', () => {
      const retryAt = new Date(now.getTime() + 30_000);
      const { patch } = applied(
        transition(narrationState({ status: 'submitting', attempts: 2 }), {
          type: 'submitDeferred',
          retryAt,
          reason: 'slow down',
          code: 'RATE_LIMIT_EXCEEDED',
          countsAsAttempt: false,
          maxAttempts: 3,
        })
      );
      expect(patch).toMatchObject({ status: 'queued', attempts: 2, nextAttemptAt: retryAt });
    });

    it('a rejection fails the narration with its reason and flags lost credits on REFUND_FAILED', () => {
      const { patch } = applied(
        transition(narrationState({ status: 'submitting' }), {
          type: 'submitRejected',
          reason: 'Refund failed',
          code: 'REFUND_FAILED',
          creditsMayBeLost: true,
        })
      );
      expect(patch).toMatchObject({ status: 'failed', lastErrorCode: 'REFUND_FAILED', creditsMayBeLost: true });
    });

    it('a queue pause puts the narration back untouched', () => {
      const { patch } = applied(
        transition(narrationState({ status: 'submitting', attempts: 1 }), {
          type: 'submitPaused',
          reason: 'no credits',
          code: 'INSUFFICIENT_CREDITS',
        })
      );
      expect(patch.status).toBe('queued');
      expect(patch.attempts).toBeUndefined();
    });

    it('the monthly budget holds the narration, unsent and unpaid, until the month ends', () => {
      const until = new Date('2026-12-01T00:00:00Z');
      const held = applied(
        transition(narrationState({ status: 'submitting', attempts: 1, leaseOwner: 'w1' }), {
          type: 'budgetHeld',
          reason: 'Monthly budget reached',
          until,
        })
      );
      expect(held.from).toEqual(['submitting']);
      expect(held.patch).toMatchObject({ status: 'queued', lastErrorCode: 'BUDGET_REACHED', nextAttemptAt: until, leaseOwner: null });
      // Nothing was asked of the service: no attempt, no submission counted.
      expect(held.patch.attempts).toBeUndefined();
      expect(held.patch.submissions).toBeUndefined();
      // Only a claimed narration is held: a stale worker's copy of a row another moved on changes nothing.
      expect(transition(narrationState({ status: 'awaiting_callback' }), { type: 'budgetHeld', reason: 'x', until })).toMatchObject({
        kind: 'apply',
        from: ['submitting'],
      });
    });
  });

  describe('callbacks', () => {
    const awaiting = narrationState({ status: 'awaiting_callback', submittedFingerprint: 'v1', attempts: 1, submissions: 1 });

    it('accepts a result and persists it before storing', () => {
      const { patch, from } = applied(transition(awaiting, { type: 'callbackWithFiles', urls, now }));
      expect(from).toEqual(['awaiting_callback']);
      expect(patch.status).toBe('storing');
      expect(patch.pendingResult).toMatchObject(urls);
      expect(patch.seenResults).toEqual([urls]);
    });

    it('ignores a callback when none is awaited', () => {
      for (const status of ['queued', 'completed', 'storing', 'failed', 'cancelled'] as const) {
        expect(transition(narrationState({ status }), { type: 'callbackWithFiles', urls, now }).kind).toBe('ignore');
      }
    });

    it('ignores a replay of an earlier result after a regenerate submission', () => {
      const regenerating = { ...awaiting, regenerate: true, seenResults: [urls] };
      expect(transition(regenerating, { type: 'callbackWithFiles', urls, now }).kind).toBe('ignore');
      expect(applied(transition(regenerating, { type: 'callbackWithFiles', urls: newUrls, now })).patch.status).toBe('storing');
    });

    it('asks for a regeneration when a regenerate:false request re-delivered the old audio of a changed article', () => {
      const stale = {
        ...awaiting,
        regenerate: false,
        fingerprint: 'v2',
        submittedFingerprint: 'v2',
        narratedFingerprint: 'v1',
        seenResults: [urls],
      };
      const { patch } = applied(transition(stale, { type: 'callbackWithFiles', urls, now }));
      expect(patch).toMatchObject({ status: 'queued', regenerate: true });
    });

    it('a null result is first checked: asked again, free (regenerate false), no attempt counted, nothing failed yet', () => {
      const { patch, from } = applied(
        transition({ ...awaiting, regenerate: true }, { type: 'callbackWithoutFiles', maxAttempts: 3, graceMs: 1000, now })
      );
      expect(from).toEqual(['awaiting_callback']);
      expect(patch).toEqual({ status: 'queued', regenerate: false, noAudioCheck: true, callbackDeadline: null, nextAttemptAt: now });
      // Even on the last attempt: a replay must not fail the article either.
      const last = applied(transition({ ...awaiting, attempts: 3 }, { type: 'callbackWithoutFiles', maxAttempts: 3, graceMs: 1000, now }));
      expect(last.patch).toMatchObject({ status: 'queued', noAudioCheck: true });
    });

    it('a null result when no callback is awaited changes nothing, checked or not', () => {
      for (const status of ['queued', 'submitting', 'storing', 'completed', 'failed', 'cancelled'] as const) {
        for (const noAudioCheck of [false, true]) {
          const result = transition(narrationState({ status, submissions: 1, noAudioCheck }), {
            type: 'callbackWithoutFiles',
            maxAttempts: 3,
            graceMs: 1000,
            now,
          });
          expect(`${status} ${noAudioCheck}: ${result.kind}`).toBe(`${status} ${noAudioCheck}: ignore`);
        }
      }
    });

    it('the check accepted (202) asks about the request in flight: no attempt counted, its version kept', () => {
      const checking = narrationState({
        status: 'submitting',
        fingerprint: 'v2',
        submittedFingerprint: 'v1',
        attempts: 1,
        submissions: 1,
        noAudioCheck: true,
      });
      const { patch } = applied(transition(checking, { type: 'submitAccepted', callbackTimeoutMs: 1000, now }));
      expect(patch).toMatchObject({ status: 'awaiting_callback', submittedFingerprint: 'v1', attempts: 1, submissions: 2 });
      expect(patch.noAudioCheck).toBeUndefined();
    });

    it("the check answered 409: the service still generates, the check is over and the request's own callback awaited", () => {
      const checking = narrationState({
        status: 'submitting',
        submittedFingerprint: 'v1',
        attempts: 1,
        submissions: 1,
        noAudioCheck: true,
      });
      const { patch } = applied(transition(checking, { type: 'submitAlreadyProcessing', callbackTimeoutMs: 1000, now }));
      expect(patch).toMatchObject({ status: 'awaiting_callback', attempts: 1, submissions: 1, noAudioCheck: false });
    });

    it('a null result answering an accepted check is held for the grace, then is the failure: resubmitted with regenerate true, within the attempt budget', () => {
      const checked = { ...awaiting, noAudioCheck: true, submissions: 2 };
      const held = applied(transition(checked, { type: 'callbackWithoutFiles', maxAttempts: 3, graceMs: 1000, now }));
      expect(held.from).toEqual(['awaiting_callback']);
      expect(held.patch).toEqual({
        lastError: expect.stringMatching(/no audio/),
        lastErrorCode: 'NO_AUDIO',
        callbackDeadline: new Date(now.getTime() + 1000),
      });
      const holding = { ...checked, ...held.patch } as typeof checked;
      // Another null result while it is held changes nothing.
      expect(transition(holding, { type: 'callbackWithoutFiles', maxAttempts: 3, graceMs: 1000, now }).kind).toBe('ignore');
      const { patch } = applied(transition(holding, { type: 'callbackTimedOut', maxAttempts: 3, now }));
      expect(patch).toMatchObject({ status: 'queued', regenerate: true, lastErrorCode: 'NO_AUDIO', noAudioCheck: false });
      const exhausted = applied(transition({ ...holding, attempts: 3 }, { type: 'callbackTimedOut', maxAttempts: 3, now }));
      expect(exhausted.patch).toMatchObject({ status: 'failed', lastErrorCode: 'NO_AUDIO', noAudioCheck: false });
    });

    it('a submitted version gets one paid retry of an empty result: empty again, it fails, whatever attempts are left', () => {
      const holding = { ...awaiting, noAudioCheck: true, submissions: 2, lastError: 'no audio', lastErrorCode: 'NO_AUDIO' };
      const first = applied(transition(holding, { type: 'callbackTimedOut', maxAttempts: 10, now }));
      expect(first.patch).toMatchObject({ status: 'queued', regenerate: true, paidRetryOf: 'v1' });
      // The paid retry was sent (attempt 2) and answered empty, checked, and held again.
      const retried = {
        ...holding,
        ...first.patch,
        status: 'awaiting_callback' as const,
        attempts: 2,
        noAudioCheck: true,
        lastErrorCode: 'NO_AUDIO',
      };
      const second = applied(transition(retried, { type: 'callbackTimedOut', maxAttempts: 10, now }));
      expect(second.patch).toMatchObject({ status: 'failed', lastErrorCode: 'NO_AUDIO', noAudioCheck: false });
      expect(second.patch.regenerate).toBeUndefined();
      // A later version submitted is a version of its own: its empty result is retried, once.
      const later = { ...retried, submittedFingerprint: 'v2' };
      expect(applied(transition(later, { type: 'callbackTimedOut', maxAttempts: 10, now })).patch).toMatchObject({
        status: 'queued',
        regenerate: true,
        paidRetryOf: 'v2',
      });
    });

    it("an editor's regenerate or new content starts the version's count of paid retries again", () => {
      const failed = narrationState({ status: 'failed', fingerprint: 'v1', submittedFingerprint: 'v1', submissions: 3, paidRetryOf: 'v1' });
      expect(applied(transition(failed, { type: 'regenerateRequested', now })).patch.paidRetryOf).toBeNull();
      expect(applied(transition(failed, { type: 'contentChanged', fingerprint: 'v2', now })).patch.paidRetryOf).toBeNull();
    });

    it('audio re-delivered while a null result is held wins: stored, the held failure cleared, nothing paid', () => {
      const holding = { ...awaiting, noAudioCheck: true, submissions: 2, lastError: 'no audio', lastErrorCode: 'NO_AUDIO' };
      const { patch } = applied(transition(holding, { type: 'callbackWithFiles', urls, now }));
      expect(patch).toMatchObject({ status: 'storing', noAudioCheck: false, lastError: null, lastErrorCode: null });
      expect(patch.regenerate).toBeUndefined();
    });

    it('a lost callback that is no held null result is asked again free, as before', () => {
      const checking = { ...awaiting, noAudioCheck: true, submissions: 2 };
      const { patch } = applied(transition(checking, { type: 'callbackTimedOut', maxAttempts: 3, now }));
      expect(patch).toMatchObject({ status: 'queued', regenerate: false, lastErrorCode: 'CALLBACK_TIMEOUT', noAudioCheck: false });
    });

    it('a result answering the check is stored, and ends it', () => {
      const { patch } = applied(transition({ ...awaiting, noAudioCheck: true }, { type: 'callbackWithFiles', urls, now }));
      expect(patch).toMatchObject({ status: 'storing', noAudioCheck: false });
    });

    it('a new version, a regenerate or a cancel ends a check: the request it was about is no longer the one wanted', () => {
      const queuedCheck = narrationState({ status: 'queued', submittedFingerprint: 'v1', submissions: 1, noAudioCheck: true });
      expect(applied(transition(queuedCheck, { type: 'contentChanged', fingerprint: 'v2', now })).patch).toMatchObject({
        regenerate: true,
        noAudioCheck: false,
      });
      expect(applied(transition(queuedCheck, { type: 'cancelled' })).patch.noAudioCheck).toBe(false);
      const failedCheck = { ...queuedCheck, status: 'failed' as const };
      expect(applied(transition(failedCheck, { type: 'regenerateRequested', now })).patch.noAudioCheck).toBe(false);
    });

    it('a replayed null result while a paid request awaits its callback costs nothing: the check gets 409, the real result is stored', () => {
      const steps: Array<Parameters<typeof transition>[1]> = [
        { type: 'callbackWithoutFiles', maxAttempts: 3, graceMs: 1000, now },
        { type: 'claimed', owner: 'a', leaseMs: 1000, now },
        { type: 'submitAlreadyProcessing', callbackTimeoutMs: 1000, now },
        // Replayed again while the service still generates: checked again, still free.
        { type: 'callbackWithoutFiles', maxAttempts: 3, graceMs: 1000, now },
        { type: 'claimed', owner: 'a', leaseMs: 1000, now },
        { type: 'submitAlreadyProcessing', callbackTimeoutMs: 1000, now },
        { type: 'callbackWithFiles', urls: newUrls, now },
      ];
      let state = narrationState({
        status: 'awaiting_callback',
        regenerate: true,
        fingerprint: 'v2',
        submittedFingerprint: 'v2',
        narratedFingerprint: 'v1',
        attempts: 1,
        submissions: 2,
        seenResults: [urls],
      });
      for (const event of steps) {
        const { patch } = applied(transition(state, event));
        // No request is queued with regenerate true, and nothing fails.
        expect(patch.regenerate).not.toBe(true);
        expect(patch.status).not.toBe('failed');
        state = { ...state, ...patch } as typeof state;
      }
      expect(state).toMatchObject({ status: 'storing', attempts: 1, submittedFingerprint: 'v2', noAudioCheck: false });
    });

    it('a lost callback is asked for again with regenerate false (free re-delivery)', () => {
      const { patch } = applied(transition({ ...awaiting, regenerate: true }, { type: 'callbackTimedOut', maxAttempts: 3, now }));
      expect(patch).toMatchObject({ status: 'queued', regenerate: false, lastErrorCode: 'CALLBACK_TIMEOUT' });
    });

    it('a check whose answer is lost too is asked again as an attempt, so that callbacks that never come end in failure', () => {
      const checking = { ...awaiting, noAudioCheck: true };
      const { patch } = applied(transition(checking, { type: 'callbackTimedOut', maxAttempts: 3, now }));
      expect(patch).toMatchObject({ status: 'queued', regenerate: false, noAudioCheck: false });
      const exhausted = applied(transition({ ...checking, attempts: 3 }, { type: 'callbackTimedOut', maxAttempts: 3, now }));
      expect(exhausted.patch).toMatchObject({ status: 'failed', noAudioCheck: false });
    });
  });

  describe('storing', () => {
    const storing = narrationState({ status: 'storing', submittedFingerprint: 'v1', attempts: 1, submissions: 1, storeAttempts: 0 });
    const held = { ...storing, storeAttempts: 1, leaseOwner: 'a' };
    const retryAt = new Date(now.getTime() + 2000);

    it('claiming a result counts the download attempt at once, by compare-and-set on the old count and a free lease', () => {
      const result = applied(transition(storing, { type: 'storeClaimed', owner: 'a', leaseMs: 3000, maxAttempts: 3, now }));
      expect(result.from).toEqual(['storing']);
      expect(result.patch).toEqual({ leaseOwner: 'a', leaseExpiresAt: new Date(now.getTime() + 3000), storeAttempts: 1 });
      expect(result.guard).toEqual({ leaseOwner: null, counters: { storeAttempts: 0 } });
    });

    it('a claim with every attempt used up (some by workers that never reported back) fails the row', () => {
      const spent = { ...storing, storeAttempts: 3, lastError: 'The file server answered HTTP 503.', lastErrorCode: 'HTTP_STATUS' };
      const { patch } = applied(transition(spent, { type: 'storeClaimed', owner: 'a', leaseMs: 3000, maxAttempts: 3, now }));
      expect(patch).toMatchObject({ status: 'failed', leaseOwner: null, lastErrorCode: 'HTTP_STATUS' });
      expect(patch.lastError).toMatch(/Gave up after 3 download attempt/);
      expect(patch.storeAttempts).toBeUndefined();
    });

    it('a claim needs a storing row with no lease holder', () => {
      expect(
        transition({ ...storing, leaseOwner: 'b' }, { type: 'storeClaimed', owner: 'a', leaseMs: 3000, maxAttempts: 3, now }).kind
      ).toBe('ignore');
      expect(
        transition({ ...storing, status: 'cancelled' }, { type: 'storeClaimed', owner: 'a', leaseMs: 3000, maxAttempts: 3, now }).kind
      ).toBe('ignore');
    });

    it('the lease holder renews its lease while it works; only the holder can', () => {
      const result = applied(transition(held, { type: 'leaseRenewed', owner: 'a', leaseMs: 3000, now }));
      expect(result).toMatchObject({
        from: ['storing'],
        patch: { leaseExpiresAt: new Date(now.getTime() + 3000) },
        guard: { leaseOwner: 'a' },
      });
      expect(transition({ ...held, status: 'cancelled' }, { type: 'leaseRenewed', owner: 'a', leaseMs: 3000, now }).kind).toBe('ignore');
    });

    it('retries a passing download failure later, keeping the persisted result and the count of the claim', () => {
      const { patch, from, guard } = applied(
        transition(held, {
          type: 'storeDeferred',
          owner: 'a',
          retryAt,
          reason: 'media host answered 503',
          code: 'HTTP_STATUS',
          maxAttempts: 3,
        })
      );
      expect(from).toEqual(['storing']);
      expect(guard).toEqual({ leaseOwner: 'a' });
      expect(patch).toMatchObject({ nextAttemptAt: retryAt, leaseOwner: null, lastErrorCode: 'HTTP_STATUS' });
      expect(patch.storeAttempts).toBeUndefined();
      expect(patch.status).toBeUndefined();
      expect(patch.pendingResult).toBeUndefined();
    });

    it('fails after maxAttempts download attempts', () => {
      const { patch } = applied(
        transition(
          { ...held, storeAttempts: 3 },
          { type: 'storeDeferred', owner: 'a', retryAt, reason: 'timeout', code: 'TIMEOUT', maxAttempts: 3 }
        )
      );
      expect(patch).toMatchObject({ status: 'failed' });
      expect(patch.lastError).toMatch(/3 download attempt/);
    });

    it('links the files in the write that completes the row, and only for the lease holder', () => {
      const result = applied(transition(held, { type: 'stored', owner: 'a', files, now }));
      expect(result.patch).toMatchObject({
        status: 'completed',
        audio: 11,
        subtitles: 12,
        subtitlesVtt: 13,
        leaseOwner: null,
        pendingResult: null,
      });
      expect(result.guard.leaseOwner).toBe('a');
    });

    it('counts the store and says files it replaced may wait to be removed; the count guards the write', () => {
      const result = applied(transition({ ...held, stores: 2 }, { type: 'stored', owner: 'a', files, now }));
      expect(result.patch).toMatchObject({ stores: 3, replacedFilesWaiting: true });
      expect(result.guard).toEqual({ leaseOwner: 'a', counters: { stores: 2 } });
      // A row stored before the count existed reads as none.
      expect(applied(transition(held, { type: 'stored', owner: 'a', files, now })).patch.stores).toBe(1);
    });

    it('replaced files removed: clears the flag in any status, only while no other store has replaced more', () => {
      for (const status of ['completed', 'queued', 'storing', 'cancelled'] as const) {
        const result = applied(
          transition(narrationState({ status, stores: 3, replacedFilesWaiting: true }), { type: 'replacedFilesRemoved' })
        );
        expect(result.patch).toEqual({ replacedFilesWaiting: false });
        expect(result.from).toContain(status);
        expect(result.guard).toEqual({ counters: { stores: 3 } });
      }
      expect(
        transition(narrationState({ status: 'completed', stores: 3, replacedFilesWaiting: false }), { type: 'replacedFilesRemoved' }).kind
      ).toBe('ignore');
    });

    it('a worker stopped by its own shutdown hands the row back and gives the attempt back', () => {
      const result = applied(transition(held, { type: 'storeAbandoned', owner: 'a', now }));
      expect(result.patch).toMatchObject({ leaseOwner: null, storeAttempts: 0, nextAttemptAt: now });
      expect(result.guard).toEqual({ leaseOwner: 'a', counters: { storeAttempts: 1 } });
    });

    it('a new result resets the download attempts', () => {
      const awaiting = narrationState({ status: 'awaiting_callback', storeAttempts: 2 });
      expect(applied(transition(awaiting, { type: 'callbackWithFiles', urls, now })).patch.storeAttempts).toBe(0);
    });
  });

  describe('compare-and-set guards', () => {
    it('every counter a patch writes is guarded by its old value', () => {
      const result = applied(
        transition(narrationState({ status: 'submitting', attempts: 2, submissions: 1 }), {
          type: 'submitAccepted',
          callbackTimeoutMs: 1000,
          now,
        })
      );
      expect(result.guard.counters).toEqual({ attempts: 2, submissions: 1 });
    });

    it('recovering an expired lease requires that it is still expired and still the same holder', () => {
      const result = applied(transition(narrationState({ status: 'storing', leaseOwner: 'a' }), { type: 'leaseExpired', now }));
      expect(result.guard).toEqual({ leaseOwner: 'a', leaseExpiredBefore: now });
    });
  });

  describe('crash recovery and cancellation', () => {
    it('a submission whose worker died is retried with regenerate false, never paying twice', () => {
      const { patch } = applied(transition(narrationState({ status: 'submitting', regenerate: true }), { type: 'leaseExpired', now }));
      expect(patch).toMatchObject({ status: 'queued', regenerate: false, leaseOwner: null });
    });

    it('a store whose worker died is picked up again from the persisted result', () => {
      const { patch, from } = applied(transition(narrationState({ status: 'storing' }), { type: 'leaseExpired', now }));
      expect(from).toEqual(['storing']);
      expect(patch).toMatchObject({ leaseOwner: null });
      expect(patch.status).toBeUndefined();
    });

    it('cancels unfinished work but not a completed narration', () => {
      expect(applied(transition(narrationState({ status: 'queued' }), { type: 'cancelled' })).patch.status).toBe('cancelled');
      expect(transition(narrationState({ status: 'completed' }), { type: 'cancelled' }).kind).toBe('ignore');
    });

    it('regenerate on request re-queues a completed article with regenerate true', () => {
      const done = narrationState({ status: 'completed', narratedFingerprint: 'v1', submissions: 1 });
      expect(applied(transition(done, { type: 'regenerateRequested', now })).patch).toMatchObject({ status: 'queued', regenerate: true });
      expect(transition(narrationState({ status: 'awaiting_callback' }), { type: 'regenerateRequested', now }).kind).toBe('ignore');
    });

    it('a regenerate of some parts re-queues a stored narration naming them until it is stored again, or taken whole', () => {
      const done = narrationState({ status: 'completed', narratedFingerprint: 'v1', submissions: 1 });
      const requested = applied(transition(done, { type: 'partsRegenerateRequested', keys: ['p2', 'p5'], now }));
      expect(requested.from).toEqual(['completed']);
      expect(requested.patch).toMatchObject({ status: 'queued', freshParts: ['p2', 'p5'], freshWanted: false, attempts: 0 });
      for (const status of ['queued', 'awaiting_parts', 'storing', 'failed'] as const)
        expect(transition(narrationState({ status }), { type: 'partsRegenerateRequested', keys: ['p2'], now }).kind).toBe('ignore');
      expect(transition(done, { type: 'partsRegenerateRequested', keys: [], now }).kind).toBe('ignore');

      const queued = { ...done, ...requested.patch };
      const planning = { ...queued, status: 'submitting' as const };
      const planned = applied(
        transition(planning, {
          type: 'partsPlanned',
          owner: 'w1',
          plan: [],
          allReady: false,
          characters: 10,
          credits: 10,
          fresh: false,
          now,
        })
      );
      // Kept while the parts are on their way: planning again must not take their old audio as at hand.
      expect(planned.patch.freshParts).toBeUndefined();
      const storing = { ...planning, ...planned.patch, status: 'storing' as const, leaseOwner: 'w1' };
      const files = { audio: 1, subtitles: 2, subtitlesVtt: 3 };
      expect(applied(transition(storing, { type: 'stored', owner: 'w1', files, now } as never)).patch.freshParts).toBeNull();
      expect(applied(transition(done, { type: 'regenerateRequested', now })).patch.freshParts).toBeNull();
    });

    it('a regenerate of unchanged text whose request may not have arrived is not satisfied by the old audio', () => {
      const done = narrationState({
        status: 'completed',
        fingerprint: 'v1',
        submittedFingerprint: 'v1',
        narratedFingerprint: 'v1',
        submissions: 1,
        seenResults: [urls],
      });
      const requested = { ...done, ...applied(transition(done, { type: 'regenerateRequested', now })).patch };
      expect(requested).toMatchObject({ regenerate: true, freshWanted: true });
      // The paid request fails in a way that may or may not have reached the service: re-ask for free.
      const retry = { ...requested, status: 'submitting' as const };
      const deferred = {
        ...retry,
        ...applied(
          transition(retry, {
            type: 'submitDeferred',
            retryAt: now,
            reason: 'reset',
            code: 'SERVICE_UNAVAILABLE',
            countsAsAttempt: true,
            maxAttempts: 3,
            outcomeUnknown: true,
          })
        ).patch,
      };
      expect(deferred).toMatchObject({ regenerate: false, freshWanted: true });
      // The service sends the old audio back: the request never arrived, so ask for the new take now.
      const awaiting = { ...deferred, status: 'awaiting_callback' as const };
      expect(applied(transition(awaiting, { type: 'callbackWithFiles', urls, now })).patch).toMatchObject({
        status: 'queued',
        regenerate: true,
      });
      // Without the editor's request, the same old audio is simply the result again.
      const plainReask = { ...awaiting, freshWanted: false };
      expect(applied(transition(plainReask, { type: 'callbackWithFiles', urls, now })).patch.status).toBe('storing');
      // A new take arrives: stored, and the wish is fulfilled.
      const storing = { ...awaiting, ...applied(transition(awaiting, { type: 'callbackWithFiles', urls: newUrls, now })).patch };
      expect(storing.status).toBe('storing');
      expect(applied(transition(storing, { type: 'stored', owner: 'a', files, now })).patch).toMatchObject({
        status: 'completed',
        freshWanted: false,
      });
    });
  });
});
