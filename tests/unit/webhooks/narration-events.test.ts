import { createNarrationRows, type CommittedChange, type NarrationRow } from '../../../server/src/queue/rows/narration-rows';
import { transition, type NarrationEvent, type NarrationState } from '../../../server/src/queue/domain/states';
import { narrationWebhookInfo, webhookEventOf } from '../../../server/src/webhooks/narration-events';
import { createNarrationWebhooks } from '../../../server/src/webhooks/narration-webhooks';
import { narrationState, narrationRow } from '../queue/fixtures';

const now = new Date('2026-01-01T00:00:00Z');
const BASE = 'https://cms.example';
/** The content API under BASE, as settings.contentApiUrl() gives it. */
const API = `${BASE}/api`;

function row(overrides: Partial<NarrationRow> = {}): NarrationRow {
  // A lease owner set, so the tests see it never leaks into a webhook.
  return narrationRow({ leaseOwner: 'secret-owner-123', ...overrides });
}

/** The webhook event a transition of `state` by `event` would announce once committed. */
function announced(state: NarrationState, event: NarrationEvent) {
  const result = transition(state, event);
  if (result.kind === 'ignore') return 'ignored';
  return webhookEventOf({ event, from: result.from, patch: result.patch });
}

const STORED = { type: 'stored', owner: 'w1', files: { audio: 1, subtitles: 2, subtitlesVtt: 3 }, now } as const;
/** A 503 on submission, counted as an attempt out of three. */
const DEFERRED = {
  type: 'submitDeferred',
  retryAt: now,
  reason: '503',
  code: 'SERVICE_UNAVAILABLE',
  countsAsAttempt: true,
  maxAttempts: 3,
} as const;

describe('which committed transitions announce a webhook event', () => {
  it('narration.ready when the audio is stored: a first narration, a regenerate, and one with a newer version queued behind it', () => {
    const storing = narrationState({
      status: 'storing',
      leaseOwner: 'w1',
      fingerprint: 'v1',
      submittedFingerprint: 'v1',
      storeAttempts: 1,
    });
    expect(announced(storing, STORED)).toBe('narration.ready');
    expect(announced({ ...storing, regenerate: true, freshWanted: true, narratedFingerprint: 'v1' }, STORED)).toBe('narration.ready');
    expect(announced({ ...storing, fingerprint: 'v2' }, STORED)).toBe('narration.ready');
  });

  it('nothing for a retry: a deferred submission, a null result or a lost callback with attempts left, a deferred download', () => {
    const submitting = narrationState({ status: 'submitting', attempts: 0 });
    expect(announced(submitting, DEFERRED)).toBeNull();
    const awaiting = narrationState({ status: 'awaiting_callback', attempts: 1, submissions: 1 });
    expect(announced(awaiting, { type: 'callbackWithoutFiles', maxAttempts: 3, graceMs: 1000, now })).toBeNull();
    expect(announced({ ...awaiting, noAudioCheck: true }, { type: 'callbackWithoutFiles', maxAttempts: 3, graceMs: 1000, now })).toBeNull();
    expect(announced(awaiting, { type: 'callbackTimedOut', maxAttempts: 3, now })).toBeNull();
    const storing = narrationState({ status: 'storing', leaseOwner: 'w1', storeAttempts: 1 });
    expect(
      announced(storing, { type: 'storeDeferred', owner: 'w1', retryAt: now, reason: 'slow', code: 'MEDIA_TIMEOUT', maxAttempts: 3 })
    ).toBeNull();
  });

  it('narration.failed once the attempts are used up, or for a failure that is not retried', () => {
    const lastTry = narrationState({ status: 'submitting', attempts: 2 });
    expect(announced(lastTry, DEFERRED)).toBe('narration.failed');
    // A null result answering the free check of one (states/callback.ts), held until no audio came: the service's own.
    const held = narrationState({
      status: 'awaiting_callback',
      attempts: 3,
      submissions: 4,
      noAudioCheck: true,
      lastErrorCode: 'NO_AUDIO',
    });
    expect(announced({ ...held, lastErrorCode: null }, { type: 'callbackWithoutFiles', maxAttempts: 3, graceMs: 1000, now })).toBeNull();
    expect(announced(held, { type: 'callbackTimedOut', maxAttempts: 3, now })).toBe('narration.failed');
    expect(announced(narrationState({ status: 'submitting' }), { type: 'submitRejected', reason: 'empty', code: 'EMPTY_TEXT' })).toBe(
      'narration.failed'
    );
    const storing = narrationState({ status: 'storing', leaseOwner: 'w1', storeAttempts: 3 });
    expect(announced(storing, { type: 'storeFailed', owner: 'w1', reason: 'bad', code: 'BAD_MEDIA' })).toBe('narration.failed');
    expect(announced({ ...storing, leaseOwner: null }, { type: 'storeClaimed', owner: 'w2', leaseMs: 1000, maxAttempts: 3, now })).toBe(
      'narration.failed'
    );
  });

  it('nothing for the other steps: claims, acceptance, callbacks with files, lease renewals, cancellations, new content', () => {
    expect(announced(narrationState(), { type: 'claimed', owner: 'w1', leaseMs: 1000, now })).toBeNull();
    expect(announced(narrationState({ status: 'submitting' }), { type: 'submitAccepted', callbackTimeoutMs: 1000, now })).toBeNull();
    const urls = { audioFile: 'https://cdn.test/a.mp3', srtFile: 'https://cdn.test/a.srt' };
    expect(announced(narrationState({ status: 'awaiting_callback' }), { type: 'callbackWithFiles', urls, now })).toBeNull();
    expect(
      announced(narrationState({ status: 'storing', leaseOwner: 'w1' }), { type: 'leaseRenewed', owner: 'w1', leaseMs: 1000, now })
    ).toBeNull();
    expect(announced(narrationState({ status: 'awaiting_callback' }), { type: 'cancelled' })).toBeNull();
    expect(
      announced(narrationState({ status: 'failed', fingerprint: 'v1' }), { type: 'contentChanged', fingerprint: 'v1', now })
    ).toBeNull();
  });

  it('a row that is already failed never announces its failure again', () => {
    expect(webhookEventOf({ event: { type: 'cancelled' }, from: ['failed'], patch: { status: 'failed' } })).toBeNull();
  });
});

describe('the body of a webhook event', () => {
  const ready = row({ status: 'completed', audio: { id: 1, url: '/uploads/a.mp3' }, subtitles: { id: 2, url: '/uploads/a.srt' } });

  it('follows Strapi entry events (model, uid) and carries the public narration JSON with its URLs', () => {
    const info = narrationWebhookInfo(
      'narration.ready',
      { ...ready, durationSeconds: '12.5' as never },
      { base: API, modelName: 'article' }
    );
    expect(info).toEqual({
      model: 'article',
      uid: 'api::article.article',
      narration: expect.objectContaining({
        articleId: 'doc1-en',
        documentId: 'doc1',
        locale: 'en',
        contentType: 'api::article.article',
        status: 'ready',
        audioUrl: `${BASE}/api/speech/narrations/doc1-en/audio.mp3`,
        srtUrl: `${BASE}/api/speech/narrations/doc1-en/subtitles.srt`,
        vttUrl: `${BASE}/api/speech/narrations/doc1-en/subtitles.vtt`,
        chaptersUrl: null,
        voice: 'en-female-1',
        durationSeconds: 12.5,
        error: null,
      }),
    });
  });

  it('adds the code and message of a failure, and never the lease holder or the text fingerprints', () => {
    const failed = row({
      status: 'failed',
      lastError: 'No audio. Gave up after 2 attempt(s).',
      lastErrorCode: 'NO_AUDIO',
      fingerprint: 'fp-secret',
    });
    const info = narrationWebhookInfo('narration.failed', failed, { base: API, modelName: 'article' });
    expect(info.narration).toMatchObject({
      status: 'failed',
      audioUrl: null,
      error: { code: 'NO_AUDIO', message: 'No audio. Gave up after 2 attempt(s).' },
    });
    const text = JSON.stringify(info);
    expect(text).not.toContain('secret-owner-123');
    expect(text).not.toContain('fp-secret');
  });
});

/** A Strapi with a webhook store, an event hub and a log, recording what they were told. */
function fakeStrapi(emit: (name: string, info: unknown) => Promise<void>) {
  const allowed = new Map<string, string>();
  const errors: string[] = [];
  const strapi = {
    get: (name: string) => {
      if (name !== 'webhookStore') throw new Error(name);
      return {
        addAllowedEvent: (key: string, value: string) => allowed.set(key, value),
        removeAllowedEvent: (key: string) => allowed.delete(key),
      };
    },
    contentType: (uid: string) => (uid === 'api::article.article' ? { modelName: 'article' } : undefined),
    eventHub: { emit },
    log: { error: (message: string) => errors.push(message) },
  };
  return { strapi: strapi as never, allowed, errors };
}

const storedChange = (after: NarrationRow): CommittedChange => ({
  event: STORED,
  from: ['storing'],
  patch: { status: 'completed' },
  row: after,
});

describe('announcing on the event hub', () => {
  it('registers its events with the webhook store and removes them again', () => {
    const { strapi, allowed } = fakeStrapi(async () => undefined);
    const webhooks = createNarrationWebhooks(strapi, {
      findRow: async () => null,
      contentApiUrl: () => API,
      verificationOf: async () => null,
    });
    webhooks.registerEvents();
    expect([...allowed.entries()]).toEqual([
      ['SPEECH_NARRATION_READY', 'narration.ready'],
      ['SPEECH_NARRATION_FAILED', 'narration.failed'],
      ['SPEECH_NARRATION_VERIFICATION_FAILED', 'narration.verification_failed'],
    ]);
    webhooks.unregisterEvents();
    expect(allowed.size).toBe(0);
  });

  it('announces a failed check with the narration and its verification, where the places differ', async () => {
    const emitted: Array<{ name: string; info: any }> = [];
    const { strapi } = fakeStrapi(async (name, info) => {
      emitted.push({ name, info });
    });
    const stored = row({ status: 'completed', title: 'Checked', audio: { id: 1, url: '/a' }, subtitles: { id: 2, url: '/b' } });
    const verification = {
      status: 'mismatch' as const,
      wordAccuracy: 0.8,
      placeCount: 1,
      places: [{ expected: 'Four five six', heard: '', atSeconds: 2.5 }],
      checks: { total: 1, done: 1 },
      reason: null,
      checkedAt: '2026-11-29T10:00:00.000Z',
    };
    const webhooks = createNarrationWebhooks(strapi, {
      findRow: async () => stored,
      contentApiUrl: () => API,
      verificationOf: async () => verification,
    });
    webhooks.verificationFailed(stored.id, stored.articleId);
    await webhooks.settle();
    expect(emitted).toEqual([
      {
        name: 'narration.verification_failed',
        info: expect.objectContaining({
          uid: 'api::article.article',
          narration: expect.objectContaining({ title: 'Checked', error: null }),
          verification,
        }),
      },
    ]);
  });

  it('returns at once while the event hub is slow, and emits the stored row with the transition status', async () => {
    const emitted: Array<{ name: string; info: any }> = [];
    let release!: () => void;
    const { strapi } = fakeStrapi(
      (name, info) =>
        new Promise<void>((resolve) => {
          emitted.push({ name, info });
          release = resolve;
        })
    );
    const stored = row({ status: 'queued', title: 'From the database', audio: { id: 1, url: '/a' }, subtitles: { id: 2, url: '/b' } });
    const webhooks = createNarrationWebhooks(strapi, {
      findRow: async () => stored,
      contentApiUrl: () => API,
      verificationOf: async () => null,
    });
    webhooks.transitionCommitted(storedChange(row({ status: 'completed' })));
    // Nothing is awaited by the caller: the emission happens beside it.
    let settled = false;
    const settling = webhooks.settle().then(() => (settled = true));
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(emitted.map((entry) => entry.name)).toEqual(['narration.ready']);
    expect(emitted[0].info.model).toBe('article');
    expect(emitted[0].info.narration.status).toBe('ready');
    expect(emitted[0].info.narration.audioUrl).toBe(`${BASE}/api/speech/narrations/doc1-en/audio.mp3`);
    expect(settled).toBe(false);
    release();
    await settling;
    expect(settled).toBe(true);
  });

  it('only logs when the event hub or the read fails, and announces nothing for other transitions', async () => {
    const emitted: string[] = [];
    const { strapi, errors } = fakeStrapi(async (name) => {
      emitted.push(name);
      throw new Error('listener broke');
    });
    const webhooks = createNarrationWebhooks(strapi, {
      findRow: async () => {
        throw new Error('database gone');
      },
      contentApiUrl: () => API,
    });
    expect(() => webhooks.transitionCommitted(storedChange(row({ status: 'completed' })))).not.toThrow();
    webhooks.transitionCommitted({ event: { type: 'cancelled' }, from: ['queued'], patch: { status: 'cancelled' }, row: row() });
    await webhooks.settle();
    expect(emitted).toEqual(['narration.ready']);
    expect(errors).toEqual([expect.stringContaining('could not announce narration.ready for doc1-en: listener broke')]);
  });
});

describe('the repository tells of a change only when its conditional update won', () => {
  function repositoryWith(count: number) {
    const changes: CommittedChange[] = [];
    const strapi = {
      db: { query: () => ({ updateMany: async () => ({ count }) }) },
      log: { error: () => undefined },
    };
    const repository = createNarrationRows(strapi as never, (change) => changes.push(change));
    return { repository, changes };
  }
  const failing: NarrationEvent = { type: 'submitRejected', reason: 'There is no text to narrate.', code: 'EMPTY_TEXT' };

  it('once, with the row after the write, when it won', async () => {
    const { repository, changes } = repositoryWith(1);
    const outcome = await repository.apply(row({ status: 'submitting' }), failing);
    expect(outcome.applied).toBe(true);
    expect(changes).toHaveLength(1);
    expect(changes[0]).toMatchObject({ event: failing, from: ['submitting'], row: { status: 'failed', lastErrorCode: 'EMPTY_TEXT' } });
  });

  it('never when another writer won, or the machine ignored the event', async () => {
    const lost = repositoryWith(0);
    expect((await lost.repository.apply(row({ status: 'submitting' }), failing)).applied).toBe(false);
    expect(lost.changes).toHaveLength(0);
    const ignored = repositoryWith(1);
    expect(
      (await ignored.repository.apply(row({ status: 'queued' }), { type: 'leaseRenewed', owner: 'w1', leaseMs: 1, now })).applied
    ).toBe(false);
    expect(ignored.changes).toHaveLength(0);
  });

  it('keeps the write when a listener throws', async () => {
    const strapi = { db: { query: () => ({ updateMany: async () => ({ count: 1 }) }) }, log: { error: jest.fn() } };
    const repository = createNarrationRows(strapi as never, () => {
      throw new Error('listener broke');
    });
    expect((await repository.apply(row({ status: 'submitting' }), failing)).applied).toBe(true);
    expect(strapi.log.error).toHaveBeenCalledWith(expect.stringContaining('listener broke'));
  });
});
