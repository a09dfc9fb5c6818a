import {
  afterComparison,
  afterFailure,
  afterSubmitted,
  overallStatus,
  retryDelayMs,
  stillTranscribing,
  type CheckRow,
} from '../../../server/src/verification/domain/check';
import { compareTranscript } from '../../../server/src/verification/domain/compare';
import {
  audioToCheck,
  listedVerificationView,
  partAudioKey,
  verificationView,
  wasRetaken,
  wholeAudioKey,
} from '../../../server/src/verification/domain/view';
import type { StoredPart } from '../../../server/src/queue';

const NOW = new Date('2026-11-29T10:00:00.000Z');
const later = (ms: number) => new Date(NOW.getTime() + ms).toISOString();

function check(overrides: Partial<CheckRow> = {}): CheckRow {
  return {
    id: 1,
    narrationId: 7,
    articleId: 'api--article-article-d1-en',
    audioKey: 'file:abc',
    partKey: null,
    language: 'en',
    text: 'One two three four.',
    status: 'pending',
    jobId: null,
    attempts: 0,
    nextAttemptAt: null,
    leaseOwner: null,
    leaseExpiresAt: null,
    submittedAt: null,
    completedAt: null,
    wordAccuracy: null,
    result: null,
    lastError: null,
    lastErrorCode: null,
    regenerated: false,
    replaced: false,
    ...overrides,
  };
}

function part(key: string, offsetMs: number, audioLength = 1000): StoredPart {
  return { key, characters: 10, audioOffset: 0, audioLength, durationSeconds: 1, offsetMs, cueFirst: 0, cueCount: 1 };
}

/** A completed check of `sent` against what was `heard` (one segment from `start`). */
function compared(sent: string, heard: string, overrides: Partial<CheckRow> = {}, start = 0): CheckRow {
  const patch = afterComparison(compareTranscript(sent, [{ start, end: start + 4, text: heard }], 'en'), 0.95, NOW);
  return check({ ...overrides, ...patch, text: sent } as Partial<CheckRow>);
}

describe("a check's steps", () => {
  it('polls an accepted job after the poll interval, with its job id', () => {
    expect(afterSubmitted('job-1', NOW, 5000)).toMatchObject({
      status: 'transcribing',
      jobId: 'job-1',
      nextAttemptAt: later(5000),
      submittedAt: NOW.toISOString(),
    });
    expect(stillTranscribing(NOW, 5000)).toEqual({ nextAttemptAt: later(5000) });
  });

  it('tries a passing failure again later, exponentially and never before Retry-After', () => {
    const failure = { message: 'The speech service is down.', code: 'INTERNAL_ERROR', retryable: true };
    expect(afterFailure(check(), failure, NOW, 5)).toEqual({
      attempts: 1,
      nextAttemptAt: later(1000),
      lastError: failure.message,
      lastErrorCode: 'INTERNAL_ERROR',
    });
    expect(afterFailure(check({ attempts: 2 }), failure, NOW, 5).nextAttemptAt).toBe(later(4000));
    expect(afterFailure(check({ attempts: 1 }), { ...failure, retryAfterMs: 30_000 }, NOW, 5).nextAttemptAt).toBe(later(30_000));
    expect(retryDelayMs(30)).toBe(5 * 60_000);
  });

  it('fails for good when the attempts are spent, or at once when another attempt cannot mend it', () => {
    const down = { message: 'down', code: 'INTERNAL_ERROR', retryable: true };
    expect(afterFailure(check({ attempts: 4 }), down, NOW, 5)).toMatchObject({
      status: 'failed',
      attempts: 5,
      nextAttemptAt: null,
      completedAt: NOW.toISOString(),
    });
    expect(afterFailure(check({ attempts: 3 }), down, NOW, 5).status).toBeUndefined();
    expect(afterFailure(check(), { message: 'refused', code: 'FORBIDDEN', retryable: false }, NOW, 5)).toMatchObject({
      status: 'failed',
      lastErrorCode: 'FORBIDDEN',
    });
  });

  it('is verified at the minimum word accuracy and a mismatch below it', () => {
    const comparison = compareTranscript(
      'a b c d e f g h i j k l m n o p q r s t',
      [{ start: 0, end: 1, text: 'a b c d e f g h i j k l m n o p q r s' }],
      'en'
    );
    expect(comparison.wordAccuracy).toBe(0.95);
    expect(afterComparison(comparison, 0.95, NOW)).toMatchObject({ status: 'verified', wordAccuracy: 0.95, nextAttemptAt: null });
    expect(afterComparison(comparison, 0.96, NOW)).toMatchObject({ status: 'mismatch', wordAccuracy: 0.95 });
    expect(afterComparison(comparison, 0.96, NOW).result).toMatchObject({ deletions: 1, placeCount: 1, sentWords: 20 });
  });
  it('ends a transcript of 10,000 words with none in common with the text as a mismatch, its accuracy unknown', () => {
    const sent = Array.from({ length: 10_000 }, (_, i) => `sent${i % 3000}`).join(' ');
    const heard = Array.from({ length: 10_000 }, (_, i) => `heard${i % 3000}`).join(' ');
    const comparison = compareTranscript(sent, [{ start: 0, end: 3600, text: heard }], 'en', 0.95);
    const patch = afterComparison(comparison, 0.95, NOW);
    expect(patch).toMatchObject({ status: 'mismatch', wordAccuracy: null, lastError: null, completedAt: NOW.toISOString() });
    expect(patch.result).toMatchObject({ sentWords: 10_000, heardWords: 10_000, substitutions: 10_000, placeCount: 1 });
    expect(patch.result?.places[0]).toMatchObject({ atSeconds: 0 });
  });
});

describe("a narration's checks together", () => {
  it('put a mismatch first, then a check still running, then a failure; verified only when all are', () => {
    expect(overallStatus(['verified', 'failed', 'transcribing', 'mismatch'])).toBe('mismatch');
    expect(overallStatus(['verified', 'failed', 'pending'])).toBe('pending');
    expect(overallStatus(['verified', 'failed'])).toBe('failed');
    expect(overallStatus(['verified', 'verified'])).toBe('verified');
  });

  it("check a whole narration's stored file, and a new store as new audio", () => {
    expect(audioToCheck({ audio: null })).toEqual([]);
    expect(audioToCheck({ audio: { id: 3, hash: 'abc' } })).toEqual([{ audioKey: 'file:abc', part: null }]);
    expect(wholeAudioKey({ id: 4, hash: 'def' })).not.toBe(wholeAudioKey({ id: 3, hash: 'abc' }));
  });

  it("check a segmented narration part by part, a part's key and its frames' length naming its audio", () => {
    const parts = [part('p1', 0), part('p2', 5000)];
    expect(audioToCheck({ audio: { id: 3 }, segments: parts }).map((item) => item.audioKey)).toEqual(['part:p1:1000', 'part:p2:1000']);
    expect(partAudioKey(part('p1', 9000))).toBe(partAudioKey(part('p1', 0)));
    expect(partAudioKey(part('p1', 0, 1200))).not.toBe(partAudioKey(part('p1', 0)));
  });

  it('show an audio not given a check yet as pending, and checks of audio the narration no longer has not at all', () => {
    const stale = compared('gone text', 'something else entirely', { audioKey: 'file:old' });
    expect(verificationView({ audio: { id: 3, hash: 'abc' } }, [stale])).toEqual({
      status: 'pending',
      wordAccuracy: null,
      placeCount: 0,
      places: [],
      checks: { total: 1, done: 0 },
      reason: null,
      checkedAt: null,
    });
  });

  it('check a part regenerated after its mismatch anew once the narration is stored again, though its key is the same', () => {
    const mismatch = compared('five six seven eight', 'five six eight', { audioKey: 'part:p2:1000', regenerated: true });
    const segments = [part('p2', 0)];
    // Before the fresh take is stored: still the mismatch it was.
    expect(wasRetaken(mismatch, { completedAt: NOW.toISOString() })).toBe(false);
    expect(verificationView({ audio: { id: 3 }, segments, completedAt: NOW.toISOString() }, [mismatch]).status).toBe('mismatch');
    // Stored again: the part's audio is new, pending its own check.
    expect(wasRetaken(mismatch, { completedAt: later(5000) })).toBe(true);
    expect(verificationView({ audio: { id: 4 }, segments, completedAt: later(5000) }, [mismatch]).status).toBe('pending');
    // A mismatch that asked for nothing keeps its check.
    expect(wasRetaken({ ...mismatch, regenerated: false }, { completedAt: later(5000) })).toBe(false);
  });

  it("weigh the parts' word accuracy by their words, and move each part's places by where the part now starts", () => {
    const first = compared('one two three four', 'one two three four', { audioKey: 'part:p1:1000' });
    const second = compared('five six seven eight', 'five six eight', { audioKey: 'part:p2:1000', id: 2 }, 1);
    const view = verificationView({ audio: { id: 3 }, segments: [part('p1', 0), part('p2', 5000)] }, [first, second]);
    expect(view.status).toBe('mismatch');
    expect(view.wordAccuracy).toBeCloseTo(7 / 8);
    // "seven" is lost after "six", the second heard word of three over 4 s from 1 s: 1 + 4/3 * 2 s into the part, 5 s into the audio.
    expect(view.places).toEqual([{ expected: 'seven', heard: '', atSeconds: 8.667 }]);
    expect(view).toMatchObject({ placeCount: 1, checks: { total: 2, done: 2 }, checkedAt: NOW.toISOString() });
  });

  it('have no word accuracy when a check was too far from its text to align', () => {
    const first = compared('one two three four', 'one two three four', { audioKey: 'part:p1:1000' });
    // Past the edits always aligned: 4,000 words heard as three others.
    const sent = Array.from({ length: 4_000 }, (_, i) => `word${i}`).join(' ');
    const second = check({
      ...afterComparison(compareTranscript(sent, [{ start: 1, end: 5, text: 'something else entirely' }], 'en', 0.95), 0.95, NOW),
      audioKey: 'part:p2:1000',
      id: 2,
    } as Partial<CheckRow>);
    const view = verificationView({ audio: { id: 3 }, segments: [part('p1', 0), part('p2', 5000)] }, [first, second]);
    expect(view).toMatchObject({ status: 'mismatch', wordAccuracy: null, placeCount: 1 });
    expect(view.places).toEqual([{ expected: sent, heard: 'something else entirely', atSeconds: 6 }]);
  });

  it('list the places of all parts in the order they are heard, whatever order the parts come in', () => {
    const early = compared('one two three four', 'one three four', { audioKey: 'part:p1:1000' });
    const late = compared('five six seven eight', 'five six eight', { audioKey: 'part:p2:1000', id: 2 }, 1);
    // The later part first: places are told by their time in the joined audio, earliest first.
    const view = verificationView({ audio: { id: 3 }, segments: [part('p2', 5000), part('p1', 0)] }, [late, early]);
    expect(view.places.map((place) => place.expected)).toEqual(['two', 'seven']);
    expect(view.places[0].atSeconds).toBeLessThan(view.places[1].atSeconds);
    expect(view.places[0].atSeconds).toBeLessThan(5);
    expect(view.places[1].atSeconds).toBeGreaterThan(5);
  });

  it('count only compared checks in the accuracy; a pending one keeps the view pending; the latest end is when it was checked', () => {
    const done = { ...compared('one two three four', 'one two three four', { audioKey: 'part:p1:1000' }), completedAt: later(1000) };
    const waiting = check({ id: 2, audioKey: 'part:p2:1000', status: 'transcribing', completedAt: null });
    const view = verificationView({ audio: { id: 3 }, segments: [part('p1', 0), part('p2', 5000)] }, [done, waiting]);
    expect(view).toMatchObject({ status: 'pending', wordAccuracy: 1, placeCount: 0, checks: { total: 2, done: 1 }, reason: null });
    expect(view.checkedAt).toBe(later(1000));
    const failed = check({ id: 2, audioKey: 'part:p2:1000', status: 'failed', lastError: 'No answer.', completedAt: later(2000) });
    expect(verificationView({ audio: { id: 3 }, segments: [part('p1', 0), part('p2', 5000)] }, [done, failed])).toMatchObject({
      status: 'failed',
      wordAccuracy: 1,
      reason: 'No answer.',
      checkedAt: later(2000),
      checks: { total: 2, done: 2 },
    });
    // Nothing compared yet: no accuracy at all.
    expect(verificationView({ audio: { id: 3 }, segments: [part('p1', 0)] }, [])).toMatchObject({ status: 'pending', wordAccuracy: null });
  });

  it('in a list, read the checks as they are, pending while there is none', () => {
    expect(listedVerificationView([])).toMatchObject({ status: 'pending', wordAccuracy: null, checks: { total: 1, done: 0 } });
    const mismatch = compared('one two three four', 'one two four');
    expect(listedVerificationView([mismatch])).toMatchObject({
      status: 'mismatch',
      placeCount: 1,
      wordAccuracy: 0.75,
      checks: { total: 1, done: 1 },
    });
  });

  it('say why a check failed', () => {
    const failed = check({ status: 'failed', lastError: 'The speech service did not answer.', completedAt: NOW.toISOString() });
    expect(verificationView({ audio: { id: 3, hash: 'abc' } }, [failed])).toMatchObject({
      status: 'failed',
      reason: 'The speech service did not answer.',
      wordAccuracy: null,
    });
  });

  it('in a list, an empty text checked counts as heard whole, and places of several checks are in the order heard', () => {
    expect(listedVerificationView([compared('', '')])).toMatchObject({ status: 'verified', wordAccuracy: 1 });
    const later = compared('alpha beta gamma delta', 'alpha gamma delta', {}, 30);
    const earlier = compared('one two three four', 'one two four', {}, 2);
    const view = listedVerificationView([later, earlier]);
    expect(view.places.map((place) => place.atSeconds)).toEqual([...view.places.map((place) => place.atSeconds)].sort((a, b) => a - b));
    expect(view.places[0].atSeconds).toBeLessThan(10);
    expect(view.places.at(-1)!.atSeconds).toBeGreaterThan(29);
  });

  it('in a list, a check still transcribing or failed adds nothing to the accuracy of the checks compared', () => {
    const heard = compared('one two three four', 'one two three four');
    const transcribing = check({ status: 'transcribing', result: heard.result, wordAccuracy: 0 });
    expect(listedVerificationView([heard, transcribing])).toMatchObject({ wordAccuracy: 1, placeCount: 0, checks: { total: 2, done: 1 } });
  });

  it('in a list, are the checks as they are, pending before the first', () => {
    expect(listedVerificationView([]).status).toBe('pending');
    expect(listedVerificationView([compared('a b c', 'a b c')])).toMatchObject({ status: 'verified', wordAccuracy: 1 });
  });
});
