import { createSubmitStep, type SubmitStepDeps } from '../../../server/src/queue/worker/submit-step';
import type { NarrationEvent } from '../../../server/src/queue/domain/states';

/**
 * The submission step over fakes of the rows, the ledger and the service: the dispatcher lease is
 * asked again before every claim, so a pass that another instance overtook (its lease ran out on a
 * slow machine) stops instead of counting the budget and the in-flight slots a second time.
 */

function queuedRow(id: number) {
  return {
    id,
    articleId: `doc${id}-en`,
    status: 'queued',
    fingerprint: `f${id}`,
    characters: 100,
    narrationMode: 'whole',
    contentType: 'api::article.article',
    targetDocumentId: `doc${id}`,
    targetLocale: 'en',
    attempts: 0,
    submissions: 0,
    regenerate: false,
    noAudioCheck: false,
    cause: null,
    causedBy: null,
    letThroughMonth: null,
    nextAttemptAt: null,
  };
}

function harness(options: { rows: number; leaseHeldFor: number }) {
  const rows = Array.from({ length: options.rows }, (_, i) => queuedRow(i + 1));
  const events: Array<{ id: number; type: NarrationEvent['type'] }> = [];
  const sent: string[] = [];
  let leaseCalls = 0;
  const deps = {
    strapi: { log: { info() {}, warn() {}, error() {} } },
    config: { maxInFlight: 10, leaseMs: 3_000, maxAttempts: 3, callbackTimeoutMs: 60_000, creditsPauseMs: 60_000 },
    owner: 'instance-a',
    now: () => new Date('2026-12-02T10:00:00Z'),
    dispatcher: { acquire: async () => ++leaseCalls <= options.leaseHeldFor },
    repository: {
      claimable: async () => rows.filter((row) => row.status === 'queued'),
      countInFlight: async () => 0,
      apply: async (row: { id: number }, event: NarrationEvent) => {
        events.push({ id: row.id, type: event.type });
        return { applied: true, row };
      },
      setFigures: async () => undefined,
    },
    parts: { claimable: async () => [], countInFlight: async () => 0 },
    planStep: {},
    settings: { get: async () => ({ contentTypes: {} }) },
    queueState: { read: async () => ({ paused: false }), update: async () => undefined },
    describeLive: async (row: { id: number; fingerprint: string }) => ({
      fingerprint: row.fingerprint,
      characters: 100,
      credits: 100,
      voiceId: 'voice-1',
      preprocessType: '0',
      title: `Article ${row.id}`,
      text: 'Some text.',
      mode: 'whole',
    }),
    client: () => ({
      processText: async ({ postData }: { postData: { articleId: string } }) => {
        sent.push(postData.articleId);
        return {};
      },
    }),
    callbackUrl: () => 'https://site.example/api/speech/callback',
    ledger: { chargeFor: async () => 100, narrationAccepted: async () => undefined, noteBalance: async () => undefined },
    budget: { check: async () => ({ hold: false }) },
  } as unknown as SubmitStepDeps;
  return { step: createSubmitStep(deps), sent, events, leaseCalls: () => leaseCalls };
}

describe('submission step and the dispatcher lease', () => {
  it('submits every queued article while the lease is held, renewing it before each', async () => {
    const { step, sent, leaseCalls } = harness({ rows: 3, leaseHeldFor: Infinity });
    await step.submitQueued(new Date('2026-12-02T10:00:00Z'));
    expect(sent).toEqual(['doc1-en', 'doc2-en', 'doc3-en']);
    expect(leaseCalls()).toBe(4);
  });

  it('stops the pass, claiming nothing more, once another instance holds the lease', async () => {
    // Held at the start of the pass and for the first claim, then taken over.
    const { step, sent, events } = harness({ rows: 3, leaseHeldFor: 2 });
    await step.submitQueued(new Date('2026-12-02T10:00:00Z'));
    expect(sent).toEqual(['doc1-en']);
    expect(events.filter((event) => event.type === 'claimed').map((event) => event.id)).toEqual([1]);
  });

  it('sends nothing when the lease is not held at all', async () => {
    const { step, sent, events } = harness({ rows: 2, leaseHeldFor: 0 });
    await step.submitQueued(new Date('2026-12-02T10:00:00Z'));
    expect(sent).toEqual([]);
    expect(events).toEqual([]);
  });
});
