import {
  fairOrder,
  partFailureReason,
  partsAtHand,
  partsProgress,
  planParts,
  type PartToNarrate,
} from '../../../server/src/queue/domain/part-plan';
import { transition, type TransitionResult } from '../../../server/src/queue/domain/states';
import { narrationState, partRow, storedPart } from './fixtures';

/** A segmented narration (docs/segmented-narration.md): the article's part events, and its plan against the parts at hand. */

const now = new Date('2026-01-01T00:00:00Z');

function applied(result: TransitionResult) {
  if (result.kind !== 'apply') throw new Error(`expected a transition, got: ${result.reason}`);
  return result;
}

const part = (key: string, characters = 100): PartToNarrate => ({ key, characters, credits: characters, text: `text of ${key}` });

describe("a segmented article's own events", () => {
  const plan = [part('a'), part('b')].map(({ key, characters, credits }) => ({ key, characters, credits }));

  it('planned by the worker that holds it: waits for its parts, with what the version pays', () => {
    const claimed = narrationState({ status: 'submitting', fingerprint: 'v2', leaseOwner: 'w1' });
    const result = applied(
      transition(claimed, { type: 'partsPlanned', owner: 'w1', plan, allReady: false, characters: 100, credits: 100, now })
    );
    expect(result.from).toEqual(['submitting']);
    expect(result.guard.leaseOwner).toBe('w1');
    expect(result.patch).toMatchObject({
      status: 'awaiting_parts',
      narrationMode: 'segmented',
      submittedFingerprint: 'v2',
      segmentPlan: plan,
      freshWanted: false,
      credits: 100,
      leaseOwner: null,
      nextAttemptAt: null,
    });
  });

  it('a fresh take (the editor asked to regenerate) no longer counts the stored parts as at hand', () => {
    const claimed = narrationState({ status: 'submitting', leaseOwner: 'w1', freshWanted: true });
    const event = { type: 'partsPlanned', owner: 'w1', plan, allReady: false, characters: 200, credits: 200, now } as const;
    expect(applied(transition(claimed, { ...event, fresh: true })).patch).toMatchObject({ segments: null, freshWanted: false });
    expect(applied(transition(claimed, event)).patch).not.toHaveProperty('segments');
  });

  it('joined at once when every part is at hand', () => {
    const claimed = narrationState({ status: 'submitting', leaseOwner: 'w1' });
    const { patch } = applied(
      transition(claimed, { type: 'partsPlanned', owner: 'w1', plan, allReady: true, characters: 0, credits: 0, now })
    );
    expect(patch).toMatchObject({ status: 'storing', storeAttempts: 0, nextAttemptAt: now, credits: 0 });
  });

  it('is not planned unless it is being submitted', () => {
    for (const status of ['queued', 'awaiting_parts', 'storing', 'completed'] as const) {
      expect(
        transition(narrationState({ status }), { type: 'partsPlanned', owner: 'w1', plan, allReady: false, characters: 0, credits: 0, now })
          .kind
      ).toBe('ignore');
    }
  });

  it('moves to joining when its parts are ready, and fails with one that failed', () => {
    expect(applied(transition(narrationState({ status: 'awaiting_parts' }), { type: 'partsReady', now })).patch).toMatchObject({
      status: 'storing',
      nextAttemptAt: now,
    });
    expect(
      applied(
        transition(narrationState({ status: 'awaiting_parts' }), { type: 'partFailed', reason: 'Part 3 of 18: no audio', code: 'NO_AUDIO' })
      ).patch
    ).toMatchObject({
      status: 'failed',
      lastError: 'Part 3 of 18: no audio',
      lastErrorCode: 'NO_AUDIO',
    });
    expect(transition(narrationState({ status: 'completed' }), { type: 'partsReady', now }).kind).toBe('ignore');
    expect(transition(narrationState({ status: 'queued' }), { type: 'partFailed', reason: 'x', code: 'y' }).kind).toBe('ignore');
  });

  it('planned again when a part was lost while joining, without the parts its stored audio could not give back', () => {
    const joining = narrationState({ status: 'storing', leaseOwner: 'w1' });
    const result = applied(transition(joining, { type: 'partsLost', owner: 'w1', reason: 'gone', segments: [storedPart('a')], now }));
    expect(result.guard.leaseOwner).toBe('w1');
    expect(result.patch).toMatchObject({ status: 'queued', segments: [storedPart('a')], lastErrorCode: 'PART_LOST', nextAttemptAt: now });
  });

  it('a new version while its parts are generated plans it again at once; a regenerate request waits', () => {
    const waiting = narrationState({ status: 'awaiting_parts', fingerprint: 'v1' });
    expect(applied(transition(waiting, { type: 'contentChanged', fingerprint: 'v2', now })).patch).toMatchObject({
      status: 'queued',
      fingerprint: 'v2',
    });
    expect(transition(waiting, { type: 'regenerateRequested', now }).kind).toBe('ignore');
  });

  it('a stored whole article clears the map of parts; a joined one records it', () => {
    const storing = narrationState({ status: 'storing', leaseOwner: 'w1', submittedFingerprint: 'v1', fingerprint: 'v1' });
    const files = { audio: 1, subtitles: 2, subtitlesVtt: 3 };
    expect(applied(transition(storing, { type: 'stored', owner: 'w1', files, now })).patch.segments).toBeNull();
    expect(applied(transition(storing, { type: 'stored', owner: 'w1', files, segments: [storedPart('a')], now })).patch.segments).toEqual([
      storedPart('a'),
    ]);
  });
});

describe('a plan against the parts at hand', () => {
  it('asks for the parts neither stored nor at the service, each key once, and pays only those', () => {
    const plan = planParts(
      [part('k1'), part('k2', 50), part('k3', 70), part('k2', 50), part('k4')],
      [storedPart('k1')],
      [partRow('k4', 'storing')]
    );
    expect(plan.create.map((p) => p.key)).toEqual(['k2', 'k3']);
    expect(plan).toMatchObject({ characters: 120, credits: 120, allReady: false, retry: [], remove: [] });
  });

  it('asks again for failed parts, keeps those on their way unpaid, and removes those the version dropped', () => {
    const failed = partRow('k2', 'failed');
    const onItsWay = partRow('k3', 'awaiting_callback');
    const dropped = partRow('k9', 'storing');
    const plan = planParts([part('k2'), part('k3')], null, [failed, onItsWay, dropped]);
    expect(plan.retry).toEqual([failed]);
    expect(plan.create).toEqual([]);
    expect(plan.remove).toEqual([dropped]);
    expect(plan.credits).toBe(100);
  });

  it('takes again the stored parts a mismatch asked for afresh, pays those alone, and never a second time once on their way', () => {
    const stored = { segments: [storedPart('k1'), storedPart('k2'), storedPart('k3')], freshParts: ['k2'] };
    expect(partsAtHand(stored)?.map((p) => p.key)).toEqual(['k1', 'k3']);
    const first = planParts([part('k1'), part('k2', 40), part('k3')], partsAtHand(stored), []);
    expect(first).toMatchObject({ credits: 40, allReady: false });
    expect(first.create.map((p) => p.key)).toEqual(['k2']);
    // Planned again (a lease lost): the fresh part on its way is kept, not asked for twice.
    const again = planParts([part('k1'), part('k2', 40), part('k3')], partsAtHand(stored), [partRow('k2', 'awaiting_callback')]);
    expect(again).toMatchObject({ credits: 0, create: [], retry: [] });
    expect(partsProgress([part('k1'), part('k2'), part('k3')], partsAtHand(stored), []).kind).toBe('waiting');
    expect(partsAtHand({ segments: null, freshParts: ['k2'] })).toBeNull();
  });

  it('is all at hand when every part is stored or ready', () => {
    expect(planParts([part('k1'), part('k2')], [storedPart('k1')], [partRow('k2', 'storing')])).toMatchObject({
      allReady: true,
      credits: 0,
      create: [],
    });
  });

  it('progress: ready parts counted, the first failed part named', () => {
    const plan = [part('k1'), part('k2'), part('k3')];
    expect(partsProgress(plan, [storedPart('k1')], [partRow('k2', 'storing'), partRow('k3', 'queued')])).toEqual({
      kind: 'waiting',
      ready: 2,
      total: 3,
    });
    expect(partsProgress(plan, [storedPart('k1')], [partRow('k2', 'storing'), partRow('k3', 'storing')])).toEqual({
      kind: 'ready',
      ready: 3,
      total: 3,
    });
    const failed = partsProgress(plan, null, [partRow('k2', 'failed', { lastError: 'No audio.' }), partRow('k3', 'storing')]);
    expect(failed).toMatchObject({ kind: 'failed', index: 2, ready: 1, total: 3 });
    expect(partFailureReason(failed as Extract<typeof failed, { kind: 'failed' }>)).toBe('Part 2 of 3: No audio.');
  });
});

describe('the fair order of queued work', () => {
  const article = (id: number, at: string) => ({ id, nextAttemptAt: at });
  const queuedPart = (id: number, turn: number, at: string, partsAfter = 0) => ({ id, turn, partsAfter, nextAttemptAt: at });

  it("a short article published after a long one goes before the long one's next part; two long ones alternate", () => {
    const order = fairOrder(
      [article(1, '2026-01-01T00:00:05Z')],
      [
        queuedPart(10, 1, '2026-01-01T00:00:00Z'),
        queuedPart(11, 2, '2026-01-01T00:00:00Z'),
        queuedPart(20, 1, '2026-01-01T00:00:01Z'),
        queuedPart(21, 2, '2026-01-01T00:00:01Z'),
      ]
    );
    expect(order.map((work) => `${work.kind}:${work.row.id}`)).toEqual(['article:1', 'part:10', 'part:20', 'part:11', 'part:21']);
  });

  it('among equals, the longest waiting first', () => {
    const order = fairOrder(
      [article(2, '2026-01-01T00:00:02Z'), article(1, '2026-01-01T00:00:03Z')],
      [queuedPart(5, 0, '2026-01-01T00:00:01Z')]
    );
    expect(order.map((work) => `${work.kind}:${work.row.id}`)).toEqual(['part:5', 'article:2', 'article:1']);
  });

  it("short articles published with a long one, or after it, go before the long one's first part", () => {
    const order = fairOrder(
      [article(3, '2026-01-01T00:00:02Z')],
      [
        queuedPart(10, 0, '2026-01-01T00:00:00Z', 19),
        queuedPart(11, 1, '2026-01-01T00:00:00Z', 18),
        queuedPart(20, 0, '2026-01-01T00:00:01Z', 0),
        queuedPart(30, 0, '2026-01-01T00:00:01Z', 1),
        queuedPart(31, 1, '2026-01-01T00:00:01Z', 0),
      ]
    );
    expect(order.map((work) => `${work.kind}:${work.row.id}`)).toEqual([
      'part:20',
      'article:3',
      'part:30',
      'part:10',
      'part:31',
      'part:11',
    ]);
  });
});
